// The second local devnet: another anvil, chain 31338 (0x7a6a, Lantern's `devnet2`, "Local devnet 2"),
// with the same dev mnemonic, so the scenario's wallets are the same addresses on both chains. Its story
// is short on purpose: a dozen transactions seeded on every start in well under a second (no cached
// state needed), deterministic (fixed timestamps, locally tracked nonces), so every start is the same chain.
import { encodeDeployData, encodeFunctionData, getAddress, getContractAddress, parseEther, toHex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { spawnAnvil } from './anvil.mjs';
import { rpcClient } from './rpc.mjs';
import { ACCOUNTS, DEV_ACCOUNTS, DEV_BALANCE_ETH, MAX_FEE_PER_GAS, MAX_PRIORITY_FEE_PER_GAS, MNEMONIC, USDC, loadArtifacts } from './scenario.mjs';

export const CHAIN_ID_2 = 31338;
/** 2026-03-01T00:00:00Z: the second chain's genesis. */
export const GENESIS_TIMESTAMP_2 = 1772323200;
const HOUR = 3600;
const DAY = 24 * HOUR;

/** Who acts on the second chain: three of the first chain's wallets, and one that is active only here. */
export const SECOND_ACCOUNTS = {
  deployer: { index: ACCOUNTS.deployer.index, role: 'Deploys Devnet 2 Dollar (D2D, 6 decimals) and Second Lights (ERC-721); mints; funds nadia' },
  alice: { index: ACCOUNTS.alice.index, role: 'Active on both chains: funds herself here (ETH to her own address), holds D2D, sends some to nadia' },
  bob: { index: ACCOUNTS.bob.index, role: 'Active on both chains: receives a Second Light and ETH, pays alice back' },
  // Index 30: beyond anvil's 20 funded accounts, and beyond those the first chain's scenario uses (up to 23).
  nadia: { index: 30, role: 'Active only on the second chain: funded by deployer, trades a Second Light and D2D' },
};

export const SECOND_ANVIL_ARGS = [
  '--chain-id', String(CHAIN_ID_2),
  '--mnemonic', MNEMONIC,
  '--accounts', String(DEV_ACCOUNTS),
  '--balance', String(DEV_BALANCE_ETH),
  '--timestamp', String(GENESIS_TIMESTAMP_2),
  '--hardfork', 'prague',
  '--order', 'fifo',
];

/**
 * The plan: blocks of signed-to-be transactions, in order, with their timestamps.
 * @param {Record<string, `0x${string}`>} A name -> address
 */
export function buildSecondPlan(A, artifacts = loadArtifacts()) {
  const enc = (artifact, functionName, args) => encodeFunctionData({ abi: artifacts[artifact].abi, functionName, args });
  const deploy = (artifact, args) => encodeDeployData({ abi: artifacts[artifact].abi, bytecode: artifacts[artifact].bytecode, args });
  // The deployer's first two transactions on this chain (nonces 0 and 1) create them.
  const contractAddress = (nonce) => getContractAddress({ from: A.deployer, nonce: BigInt(nonce) }).toLowerCase();
  const contracts = {
    d2d: { address: contractAddress(0), artifact: 'Token', name: 'Devnet 2 Dollar', symbol: 'D2D', decimals: 6 },
    lights2: { address: contractAddress(1), artifact: 'Lights721', name: 'Second Lights', symbol: 'LIGHT2' },
  };
  const C = { d2d: contracts.d2d.address, lights2: contracts.lights2.address };
  const tx = (from, to, note, { data = '0x', value = 0n, gas }) => ({ from, to, note, data, value, gas: BigInt(gas) });
  const at = (day, hour) => GENESIS_TIMESTAMP_2 + day * DAY + hour * HOUR;
  const blocks = [
    { timestamp: at(0, 1), txs: [tx('deployer', null, 'deployer deploys Devnet 2 Dollar (D2D)', { data: deploy('Token', ['Devnet 2 Dollar', 'D2D', 6]), gas: 4_000_000 })] },
    { timestamp: at(0, 2), txs: [tx('deployer', null, 'deployer deploys Second Lights (ERC-721)', { data: deploy('Lights721', ['Second Lights', 'LIGHT2']), gas: 4_000_000 })] },
    { timestamp: at(1, 9), txs: [tx('alice', A.alice, 'alice funds herself on devnet 2: 1 ETH to her own address', { value: parseEther('1'), gas: 21_000 })] },
    { timestamp: at(1, 10), txs: [tx('deployer', C.d2d, 'mint 500 D2D to alice', { data: enc('Token', 'mint', [A.alice, USDC(500)]), gas: 90_000 })] },
    { timestamp: at(2, 9), txs: [tx('deployer', A.nadia, 'deployer funds nadia with 5 ETH', { value: parseEther('5'), gas: 21_000 })] },
    {
      timestamp: at(2, 10),
      txs: [
        tx('deployer', C.lights2, 'mint Second Light #1 to nadia', { data: enc('Lights721', 'mint', [A.nadia]), gas: 200_000 }),
        tx('deployer', C.lights2, 'mint Second Light #2 to bob', { data: enc('Lights721', 'mint', [A.bob]), gas: 200_000 }),
      ],
    },
    { timestamp: at(3, 12), txs: [tx('nadia', A.bob, 'nadia sends 0.5 ETH to bob', { value: parseEther('0.5'), gas: 21_000 })] },
    { timestamp: at(4, 12), txs: [tx('alice', C.d2d, 'alice sends 120 D2D to nadia', { data: enc('Token', 'transfer', [A.nadia, USDC(120)]), gas: 80_000 })] },
    { timestamp: at(5, 15), txs: [tx('nadia', C.lights2, 'nadia sends Second Light #1 to alice', { data: enc('Lights721', 'safeTransferFrom', [A.nadia, A.alice, 1n]), gas: 150_000 })] },
    { timestamp: at(6, 18), txs: [tx('bob', A.alice, 'bob sends 0.1 ETH to alice', { value: parseEther('0.1'), gas: 21_000 })] },
  ];
  const nonces = {};
  for (const b of blocks) for (const t of b.txs) t.nonce = (nonces[t.from] = (nonces[t.from] ?? -1) + 1);
  return { blocks, contracts };
}

export function secondSigners() {
  return Object.fromEntries(Object.entries(SECOND_ACCOUNTS).map(([name, a]) => [name, mnemonicToAccount(MNEMONIC, { addressIndex: a.index })]));
}

/**
 * Seeds a fresh anvil started with SECOND_ANVIL_ARGS; returns the manifest: accounts, contracts and
 * every transaction with its block and the addresses it touches (sender, recipient, created contract,
 * token and NFT transfer parties; this chain has no internal calls).
 */
export async function seedSecond({ rpcUrl }) {
  const rpc = rpcClient(rpcUrl);
  if (Number(await rpc.call('eth_chainId')) !== CHAIN_ID_2) throw new Error(`seed 2: chain id is not ${CHAIN_ID_2}`);
  if (Number(await rpc.call('eth_blockNumber')) !== 0) throw new Error('seed 2: the chain is not fresh');
  const signers = secondSigners();
  const A = Object.fromEntries(Object.entries(signers).map(([n, a]) => [n, a.address.toLowerCase()]));
  const plan = buildSecondPlan(A);
  const sent = [];
  await rpc.call('evm_setAutomine', [false]);
  try {
    for (const block of plan.blocks) {
      const raws = await Promise.all(block.txs.map((t) => signers[t.from].signTransaction({
        chainId: CHAIN_ID_2, type: 'eip1559', nonce: t.nonce, to: t.to ?? undefined, value: t.value, data: t.data,
        gas: t.gas, maxFeePerGas: MAX_FEE_PER_GAS, maxPriorityFeePerGas: MAX_PRIORITY_FEE_PER_GAS,
      })));
      const hashes = await rpc.batch(raws.map((r) => ['eth_sendRawTransaction', [r]]));
      hashes.forEach((h, i) => sent.push({ ...block.txs[i], hash: h }));
      await rpc.call('evm_setNextBlockTimestamp', [block.timestamp]);
      await rpc.call('evm_mine', []);
    }
  } finally {
    await rpc.call('evm_setAutomine', [true]);
  }
  const receipts = await rpc.batch(sent.map((t) => ['eth_getTransactionReceipt', [t.hash]]));
  const book = Object.fromEntries([...Object.entries(A).map(([n, a]) => [a, n]), ...Object.entries(plan.contracts).map(([k, c]) => [c.address, k])]);
  const transactions = sent.map((t, i) => {
    const r = receipts[i];
    if (Number(r.status) !== 1) throw new Error(`seed 2: "${t.note}" reverted`);
    const parties = new Set([r.from.toLowerCase()]);
    if (r.to) parties.add(r.to.toLowerCase());
    if (r.contractAddress) parties.add(r.contractAddress.toLowerCase());
    // Transfer(from, to, ...): the only events of this chain; topic 3 of an ERC-721 Transfer is the token id.
    for (const l of r.logs) for (const topic of l.topics.slice(1, 3)) parties.add(`0x${topic.slice(26)}`.toLowerCase());
    parties.delete(`0x${'0'.repeat(40)}`);
    return {
      hash: t.hash, blockNumber: Number(r.blockNumber), transactionIndex: Number(r.transactionIndex), note: t.note,
      from: r.from.toLowerCase(), to: r.to ? r.to.toLowerCase() : null, value: t.value.toString(),
      parties: [...parties].sort(), partyNames: [...parties].sort().map((a) => book[a] ?? null),
    };
  });
  const accounts = Object.fromEntries(Object.entries(SECOND_ACCOUNTS).map(([name, a]) => [name, {
    address: A[name], checksumAddress: getAddress(A[name]), index: a.index, role: a.role,
    txCount: transactions.filter((t) => t.parties.includes(A[name])).length,
  }]));
  const last = transactions[transactions.length - 1];
  const lastTimestamp = plan.blocks[plan.blocks.length - 1].timestamp;
  return { chainId: CHAIN_ID_2, chainIdHex: toHex(CHAIN_ID_2), stats: { transactions: transactions.length, lastBlock: last.blockNumber, lastTimestamp }, accounts, contracts: plan.contracts, transactions };
}

/**
 * Starts the second devnet on host:port and seeds it (a fresh chain on every start, always the same).
 * @param {{ port?: number, host?: string, log?: (line: string) => void }} [o]
 */
export async function startSecondDevnet({ port = 8546, host = '127.0.0.1', log } = {}) {
  const t0 = Date.now();
  const node = await spawnAnvil({ port, host, log, args: SECOND_ANVIL_ARGS });
  try {
    const manifest = await seedSecond({ rpcUrl: node.url });
    // Blocks mined later (tests) must never be dated before the seeded ones: the clock is the wall clock.
    await rpcClient(node.url).call('evm_setTime', [Math.max(Math.floor(Date.now() / 1000), manifest.stats.lastTimestamp + 60)]);
    const startupMs = Date.now() - t0;
    log?.(`[devnet-evm2] seeded devnet 2 on ${node.url} in ${startupMs} ms`);
    return { url: node.url, chainId: CHAIN_ID_2, stop: node.stop, manifest, pid: node.pid, startupMs };
  } catch (e) {
    await node.stop();
    throw e;
  }
}

/** SCENARIO.md's section on the second chain, from the plan (no chain needed: the plan is deterministic). */
export function renderSecondChainMd() {
  const A = Object.fromEntries(Object.entries(secondSigners()).map(([n, a]) => [n, a.address.toLowerCase()]));
  const plan = buildSecondPlan(A);
  const day = (ts) => new Date(ts * 1000).toISOString().slice(0, 16).replace('T', ' ');
  const L = [];
  L.push('## The second chain (devnet2)', '',
    `\`npm run dev\` also starts a second anvil: chain id ${CHAIN_ID_2} (${toHex(CHAIN_ID_2)}), Lantern's \`devnet2\` ("Local devnet 2"), on`,
    '127.0.0.1:`DEVNET_EVM2_PORT` (default 8546), with the same dev mnemonic, so every wallet above has the same address there.',
    'It is seeded on every start (a dozen transactions, well under a second; `devnet/evm/second.mjs`). Its story:', '',
    '- **alice** and **bob** are active on both chains: alice funds herself (1 ETH to her own address), holds Devnet 2 Dollar',
    '  (D2D) and a Second Light she gets from nadia; bob receives a Second Light and ETH, and pays alice back.',
    '- **nadia** (dev account 30) is active **only** on the second chain: the deployer funds her, she pays bob, receives D2D',
    '  from alice and sends her Second Light #1 to alice. On the first chain her history is empty.', '',
    '| name | address | dev index | role |', '|---|---|---|---|');
  for (const [name, a] of Object.entries(SECOND_ACCOUNTS)) L.push(`| ${name} | \`${A[name]}\` | ${a.index} | ${a.role} |`);
  L.push('', '| contract | address | what |', '|---|---|---|');
  for (const [k, c] of Object.entries(plan.contracts)) L.push(`| ${k} | \`${c.address}\` | ${c.name} (${c.symbol}, ${c.artifact}) |`);
  L.push('', '| block | time (UTC) | from | what |', '|---|---|---|---|');
  plan.blocks.forEach((b, i) => b.txs.forEach((t) => L.push(`| ${i + 1} | ${day(b.timestamp)} | ${t.from} | ${t.note} |`)));
  L.push('');
  return L.join('\n');
}
