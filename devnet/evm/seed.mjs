// Seeds a fresh anvil with the scenario of scenario.mjs and returns the manifest (scenario.json):
// every transaction with its parties, transfers and amounts, read back from the chain itself
// (receipts, logs and callTracer traces), plus the final NFT ownership and token balances.
//
// CLI: node devnet/evm/seed.mjs [--port 28545] [--check]
//   starts its own anvil, seeds it, writes devnet/evm/scenario.json and SCENARIO.md
//   (--check: compares with the committed files instead and exits 1 on any difference).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeAbiParameters, encodeFunctionData, formatEther, formatUnits, getAddress, keccak256, maxUint256, parseAbi, toHex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { rpcClient } from './rpc.mjs';
import { renderSecondChainMd } from './second.mjs';
import {
  ACCOUNTS, CHAIN_ID, DEV_ACCOUNTS, DEV_BALANCE_ETH, GENESIS_TIMESTAMP, MAX_FEE_PER_GAS, MAX_PRIORITY_FEE_PER_GAS,
  MNEMONIC, buildPlan, loadArtifacts,
} from './scenario.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const MANIFEST_PATH = path.join(here, 'scenario.json');
export const SCENARIO_MD_PATH = path.join(here, 'SCENARIO.md');

/** anvil flags of the seeded chain (the warm start must use the same ones). */
export const ANVIL_ARGS = [
  '--chain-id', String(CHAIN_ID),
  '--mnemonic', MNEMONIC,
  '--accounts', String(DEV_ACCOUNTS),
  '--balance', String(DEV_BALANCE_ETH),
  '--timestamp', String(GENESIS_TIMESTAMP),
  '--hardfork', 'prague',
  // FIFO: several transactions in one block keep the order they were sent in.
  '--order', 'fifo',
  // Keeps per-block states in the dumped state file, so after --load-state debug_traceTransaction
  // and historical eth_call/eth_getBalance still work (without it they fail with "Resource not found").
  '--preserve-historical-states',
];

const TOPIC_TRANSFER = keccak256(toHex('Transfer(address,address,uint256)'));
const TOPIC_SINGLE = keccak256(toHex('TransferSingle(address,address,address,uint256,uint256)'));
const TOPIC_BATCH = keccak256(toHex('TransferBatch(address,address,address,uint256[],uint256[])'));
const ZERO = '0x0000000000000000000000000000000000000000';
const topicAddr = (t) => `0x${t.slice(26)}`.toLowerCase();

export function namedAccounts() {
  return Object.fromEntries(
    Object.entries(ACCOUNTS).map(([name, a]) => [name, mnemonicToAccount(MNEMONIC, { addressIndex: a.index })]),
  );
}

/**
 * Seeds the chain at rpcUrl, which must be a fresh anvil started with ANVIL_ARGS.
 * @param {{ rpcUrl: string, log?: (msg: string) => void }} o
 */
export async function seed({ rpcUrl, log = () => {} }) {
  const rpc = rpcClient(rpcUrl);
  const artifacts = loadArtifacts();
  if (Number(await rpc.call('eth_chainId')) !== CHAIN_ID) throw new Error(`seed: chain id is not ${CHAIN_ID}`);
  if (Number(await rpc.call('eth_blockNumber')) !== 0) throw new Error('seed: the chain is not fresh (block number is not 0)');

  const signers = namedAccounts();
  const addressOf = Object.fromEntries(Object.entries(signers).map(([n, a]) => [n, a.address.toLowerCase()]));
  const plan = buildPlan(addressOf, artifacts);

  const t0 = Date.now();
  await rpc.call('evm_setAutomine', [false]);
  const planned = []; // in chain order
  try {
    for (const block of plan.blocks) {
      const raws = await Promise.all(block.txs.map((t) => signers[t.from].signTransaction({
        chainId: CHAIN_ID, type: 'eip1559', nonce: t.nonce, to: t.to ?? undefined, value: t.value, data: t.data,
        gas: t.gas, maxFeePerGas: MAX_FEE_PER_GAS, maxPriorityFeePerGas: MAX_PRIORITY_FEE_PER_GAS,
      })));
      const hashes = await rpc.batch(raws.map((r) => ['eth_sendRawTransaction', [r]]));
      hashes.forEach((h, i) => {
        if (h !== keccak256(raws[i])) throw new Error(`seed: unexpected hash for ${block.txs[i].note}`);
        planned.push({ ...block.txs[i], hash: h });
      });
      await rpc.call('evm_setNextBlockTimestamp', [block.timestamp]);
      await rpc.call('evm_mine', []);
    }
  } finally {
    await rpc.call('evm_setAutomine', [true]);
  }
  log(`seed: ${planned.length} transactions in ${plan.blocks.length} blocks sent in ${Date.now() - t0} ms`);

  const manifest = await buildManifest({ rpc, plan, planned, addressOf, artifacts });
  log(`seed: manifest built in ${Date.now() - t0} ms total`);
  return manifest;
}

async function buildManifest({ rpc, plan, planned, addressOf, artifacts }) {
  const last = Number(await rpc.call('eth_blockNumber'));
  if (last !== plan.blocks.length) throw new Error(`seed: expected ${plan.blocks.length} blocks, chain has ${last}`);
  const blockNums = Array.from({ length: last }, (_, i) => i + 1);
  const blocks = await rpc.batch(blockNums.map((n) => ['eth_getBlockByNumber', [toHex(n), false]]));
  const chainOrder = blocks.flatMap((b) => b.transactions);
  if (chainOrder.join() !== planned.map((p) => p.hash).join()) throw new Error('seed: blocks do not hold the planned transactions in order');
  const blockByNum = new Map(blocks.map((b) => [Number(b.number), b]));
  const hashes = planned.map((p) => p.hash);
  const receipts = await rpc.batch(hashes.map((h) => ['eth_getTransactionReceipt', [h]]));
  const traces = await rpc.batch(hashes.map((h) => ['debug_traceTransaction', [h, { tracer: 'callTracer' }]]), 50);

  const contracts = structuredClone(plan.contracts);
  const tokenInfo = {
    [contracts.usdc.address]: { symbol: 'USDC', decimals: 6 },
    [contracts.lnt.address]: { symbol: 'LNT', decimals: 18 },
    [contracts.spam.address]: { symbol: 'CLAIM-REWARDS.EXAMPLE', decimals: 18 },
  };
  // The holder's odd tokens (holdings.mjs) carry their facts; BROKEN's decimals are a lie, so not formatted.
  for (const c of Object.values(contracts)) {
    if (c.kind === 'erc20' && c.symbol && typeof c.decimals === 'number') tokenInfo[c.address] = { symbol: c.symbol, decimals: c.decimals };
  }
  const book = {};
  for (const [n, a] of Object.entries(addressOf)) book[a] = n;
  for (const [k, c] of Object.entries(contracts)) book[c.address] = k;

  const transactions = planned.map((p, i) => {
    const r = receipts[i];
    const b = blockByNum.get(Number(r.blockNumber));
    const status = Number(r.status);
    if (status !== p.expectStatus) throw new Error(`seed: "${p.note}" ended with status ${status}, expected ${p.expectStatus}`);
    const from = r.from.toLowerCase();
    const to = r.to ? r.to.toLowerCase() : null;
    const nativeTransfers = [];
    const internalCalls = [];
    const created = [];
    if (r.contractAddress) created.push(r.contractAddress.toLowerCase());
    if (status === 1 && p.value > 0n) {
      nativeTransfers.push({ from, to, value: p.value.toString(), formatted: formatEther(p.value), internal: false });
    }
    if (status === 1) {
      (function walk(call, depth) {
        if (depth > 0) {
          const c = { type: call.type, from: call.from.toLowerCase(), to: call.to?.toLowerCase() ?? null, value: BigInt(call.value ?? '0x0').toString(), depth };
          internalCalls.push(c);
          if (c.type.startsWith('CREATE') && c.to) created.push(c.to);
          if (c.value !== '0') nativeTransfers.push({ from: c.from, to: c.to, value: c.value, formatted: formatEther(BigInt(c.value)), internal: true });
        }
        for (const sub of call.calls ?? []) walk(sub, depth + 1);
      })(traces[i], 0);
    }
    const tokenTransfers = [];
    const nftTransfers = [];
    for (const log of r.logs) {
      const addr = log.address.toLowerCase();
      const [t0, t1, t2, t3] = log.topics;
      const logIndex = Number(log.logIndex);
      if (t0 === TOPIC_TRANSFER && log.topics.length === 3) {
        const value = BigInt(log.data);
        const info = tokenInfo[addr];
        tokenTransfers.push({ token: addr, tokenKey: book[addr], from: topicAddr(t1), to: topicAddr(t2), value: value.toString(),
          formatted: info ? formatUnits(value, info.decimals) : null, symbol: info?.symbol ?? null, logIndex });
      } else if (t0 === TOPIC_TRANSFER && log.topics.length === 4) {
        nftTransfers.push({ contract: addr, standard: 'erc721', from: topicAddr(t1), to: topicAddr(t2), tokenId: BigInt(t3).toString(), amount: '1', logIndex });
      } else if (t0 === TOPIC_SINGLE) {
        const [id, value] = decodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], log.data);
        nftTransfers.push({ contract: addr, standard: 'erc1155', operator: topicAddr(t1), from: topicAddr(t2), to: topicAddr(t3), tokenId: id.toString(), amount: value.toString(), logIndex });
      } else if (t0 === TOPIC_BATCH) {
        const [ids, values] = decodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], log.data);
        ids.forEach((id, k) => nftTransfers.push({ contract: addr, standard: 'erc1155', operator: topicAddr(t1), from: topicAddr(t2), to: topicAddr(t3), tokenId: id.toString(), amount: values[k].toString(), logIndex, batchIndex: k }));
      }
    }
    const parties = new Set([from]);
    if (to) parties.add(to);
    for (const a of created) parties.add(a);
    for (const c of internalCalls) { parties.add(c.from); if (c.to) parties.add(c.to); }
    for (const t of [...tokenTransfers, ...nftTransfers]) { parties.add(t.from); parties.add(t.to); }
    parties.delete(ZERO);
    return {
      hash: r.transactionHash,
      blockNumber: Number(r.blockNumber),
      blockHash: r.blockHash,
      transactionIndex: Number(r.transactionIndex),
      timestamp: Number(b.timestamp),
      time: new Date(Number(b.timestamp) * 1000).toISOString(),
      from, to, nonce: p.nonce,
      value: p.value.toString(),
      kind: p.kind,
      note: p.note,
      status,
      gasUsed: BigInt(r.gasUsed).toString(),
      effectiveGasPrice: BigInt(r.effectiveGasPrice).toString(),
      contractAddress: r.contractAddress ? r.contractAddress.toLowerCase() : null,
      createdContracts: created,
      nativeTransfers, tokenTransfers, nftTransfers, internalCalls,
      parties: [...parties].sort(),
      partyNames: [...parties].sort().map((a) => book[a] ?? null),
    };
  });

  // Deployment facts of each contract.
  for (const [key, c] of Object.entries(contracts)) {
    const t = transactions.find((x) => x.createdContracts.includes(c.address));
    if (!t) throw new Error(`seed: no transaction created ${key} at ${c.address}`);
    c.deployTx = t.hash; c.blockNumber = t.blockNumber; c.createdBy = t.kind === 'factory_deploy' ? 'factory' : 'eoa';
    const code = await rpc.call('eth_getCode', [c.address, 'latest']);
    // Immutables are patched into the runtime code, so compare lengths, not bytes.
    if (code.length !== artifacts[c.artifact].deployedBytecode.length) throw new Error(`seed: code at ${key} is not ${c.artifact}`);
  }
  const meta = {
    usdc: { name: 'Devnet USD Coin', symbol: 'USDC', decimals: 6 },
    lnt: { name: 'Lantern Token', symbol: 'LNT', decimals: 18 },
    spam: { name: 'Visit claim-rewards.example to claim', symbol: 'CLAIM-REWARDS.EXAMPLE', decimals: 18, possibleSpam: true },
    lights: { name: 'Lantern Lights', symbol: 'LIGHT' },
    items: { name: 'Lantern Items', symbol: 'LITEM' },
    farLanterns: { name: 'Far Lanterns', symbol: 'FAR' },
  };
  for (const [k, m] of Object.entries(meta)) Object.assign(contracts[k], m);

  // Final NFT ownership and token balances, replayed from the logs and checked against the chain.
  const own721 = new Map(); const own1155 = new Map(); const balances = {};
  for (const t of transactions) {
    for (const n of t.nftTransfers) {
      if (n.standard === 'erc721') {
        const k = `${n.contract}|${n.tokenId}`;
        if (n.to === ZERO) own721.delete(k); else own721.set(k, n.to);
      } else {
        for (const [who, sign] of [[n.from, -1n], [n.to, 1n]]) {
          if (who === ZERO) continue;
          const k = `${n.contract}|${n.tokenId}|${who}`;
          own1155.set(k, (own1155.get(k) ?? 0n) + sign * BigInt(n.amount));
        }
      }
    }
    for (const x of t.tokenTransfers) {
      const bt = (balances[x.tokenKey] ??= {});
      if (x.from !== ZERO) bt[x.from] = (BigInt(bt[x.from] ?? 0) - BigInt(x.value)).toString();
      if (x.to !== ZERO) bt[x.to] = (BigInt(bt[x.to] ?? 0) + BigInt(x.value)).toString();
    }
  }
  const finalNfts = [];
  for (const [k, owner] of own721) {
    const [contract, tokenId] = k.split('|');
    finalNfts.push({ contract, contractKey: book[contract], standard: 'erc721', tokenId, owner, ownerName: book[owner] ?? null, amount: '1' });
  }
  for (const [k, amount] of own1155) {
    if (amount < 0n) throw new Error(`seed: negative 1155 balance ${k}`);
    if (amount === 0n) continue;
    const [contract, tokenId, owner] = k.split('|');
    finalNfts.push({ contract, contractKey: book[contract], standard: 'erc1155', tokenId, owner, ownerName: book[owner] ?? null, amount: amount.toString() });
  }
  finalNfts.sort((a, b) => a.contract.localeCompare(b.contract) || Number(a.tokenId) - Number(b.tokenId) || a.owner.localeCompare(b.owner));
  // A rebasing token's balances move without logs and a reverting one has none to read: not replayable.
  for (const [k, c] of Object.entries(contracts)) if (c.rebasing || c.balanceReverts) delete balances[k];
  await verifyOnChain(rpc, artifacts, contracts, transactions, finalNfts, balances);
  for (const bt of Object.values(balances)) for (const [a, v] of Object.entries(bt)) if (v === '0') delete bt[a];
  const holdings = await readHoldings(rpc, artifacts, contracts, transactions, addressOf, book);

  const touching = (a) => transactions.filter((t) => t.parties.includes(a));
  const accounts = Object.fromEntries(Object.entries(ACCOUNTS).map(([name, a]) => [name, {
    address: addressOf[name], checksumAddress: getAddress(addressOf[name]), index: a.index, role: a.role,
    txCount: touching(addressOf[name]).length, sentCount: transactions.filter((t) => t.from === addressOf[name]).length,
  }]));
  for (const c of Object.values(contracts)) c.txCount = touching(c.address).length;
  const first = transactions[0]; const lastTx = transactions[transactions.length - 1];
  const gw = contracts.graceWallet;
  return {
    schema: 'lantern-devnet-evm-scenario/1',
    chainId: CHAIN_ID,
    chainIdHex: toHex(CHAIN_ID),
    mnemonic: MNEMONIC,
    genesisTimestamp: GENESIS_TIMESTAMP,
    anvilArgs: ANVIL_ARGS,
    stats: {
      transactions: transactions.length,
      blocks: last,
      reverted: transactions.filter((t) => t.status === 0).length,
      firstBlock: first.blockNumber, lastBlock: lastTx.blockNumber,
      firstTimestamp: first.timestamp, lastTimestamp: lastTx.timestamp,
      days: Math.floor((lastTx.timestamp - first.timestamp) / 86400),
      kinds: Object.fromEntries([...new Set(transactions.map((t) => t.kind))].sort().map((k) => [k, transactions.filter((t) => t.kind === k).length])),
    },
    accounts,
    contracts,
    eip1271: {
      wallet: gw.address,
      owner: accounts.grace.address,
      ownerIndex: accounts.grace.index,
      magicValue: '0x1626ba7e',
      checks: 'isValidSignature(hash, sig) accepts a 65-byte (r,s,v) signature when ecrecover(hash, v, r, s) is the owner, with hash taken exactly as given. viem verifyMessage/verifySiweMessage pass hashMessage(message) (EIP-191), so the owner signs with personal_sign/signMessage.',
      counterfactual: {
        ...plan.counterfactual,
        owner: accounts.grace.address,
        note: 'Not deployed. EIP-6492: wrap the owner signature with factory + factoryData; viem verifies it through the universal validator.',
      },
    },
    transactions,
    final_nft_ownership: finalNfts,
    final_token_balances: balances,
    holdings,
  };
}

const TOPIC_APPROVAL = keccak256(toHex('Approval(address,address,uint256)'));
const TOPIC_APPROVAL_FOR_ALL = keccak256(toHex('ApprovalForAll(address,address,bool)'));

/**
 * What holder and merchant hold at the last block and who may spend it, read from the chain: balanceOf
 * of every ERC-20 whose Transfer logs name them (null where balanceOf reverts), and allowance /
 * isApprovedForAll of every pair their Approval / ApprovalForAll logs name (zero ones kept here, with
 * their value, so SCENARIO.md shows the revoked ones too).
 */
async function readHoldings(rpc, artifacts, contracts, transactions, addressOf, book) {
  const erc20 = parseAbi(['function balanceOf(address) view returns (uint256)', 'function allowance(address,address) view returns (uint256)']);
  const nft = parseAbi(['function isApprovedForAll(address,address) view returns (bool)']);
  const callAt = async (to, data) => {
    try {
      return await rpc.call('eth_call', [{ to, data }, 'latest']);
    } catch {
      return null; // reverted
    }
  };
  const receipts = await rpc.batch(transactions.map((t) => ['eth_getTransactionReceipt', [t.hash]]));
  const out = {};
  for (const who of ['holder', 'merchant']) {
    const a = addressOf[who];
    const tokens = [...new Set(transactions.flatMap((t) => t.tokenTransfers).filter((x) => x.from === a || x.to === a).map((x) => x.token))].sort();
    const rows = [];
    for (const token of tokens) {
      const raw = await callAt(token, encodeFunctionData({ abi: erc20, functionName: 'balanceOf', args: [a] }));
      rows.push({ token, tokenKey: book[token], balance: raw === null ? null : BigInt(raw).toString() });
    }
    const pairs = new Map();
    for (const r of receipts) {
      for (const l of r.logs) {
        if (l.topics[1] === undefined || topicAddr(l.topics[1]) !== a) continue;
        if (l.topics[0] === TOPIC_APPROVAL && l.topics.length === 3) pairs.set(`erc20|${l.address.toLowerCase()}|${topicAddr(l.topics[2])}`, true);
        if (l.topics[0] === TOPIC_APPROVAL_FOR_ALL) pairs.set(`operator|${l.address.toLowerCase()}|${topicAddr(l.topics[2])}`, true);
      }
    }
    const approvals = [];
    for (const k of [...pairs.keys()].sort()) {
      const [kind, token, spender] = k.split('|');
      const data = kind === 'erc20'
        ? encodeFunctionData({ abi: erc20, functionName: 'allowance', args: [a, spender] })
        : encodeFunctionData({ abi: nft, functionName: 'isApprovedForAll', args: [a, spender] });
      const raw = await callAt(token, data);
      const value = raw === null ? null : BigInt(raw).toString();
      approvals.push({ kind, token, tokenKey: book[token], spender, spenderName: book[spender] ?? null, value });
    }
    out[who] = { address: a, tokens: rows, approvals };
  }
  return out;
}

async function verifyOnChain(rpc, artifacts, contracts, transactions, finalNfts, balances) {
  const call = (to, artifact, fn, args) => ['eth_call', [{ to, data: encodeFunctionData({ abi: artifacts[artifact].abi, functionName: fn, args }) }, 'latest']];
  const minted = transactions.flatMap((t) => t.nftTransfers).filter((n) => n.standard === 'erc721' && n.from === ZERO);
  const owners = await rpc.batch(minted.map((n) => call(n.contract, 'Lights721', 'ownerOfRaw', [BigInt(n.tokenId)])));
  minted.forEach((n, i) => {
    const onChain = topicAddr(owners[i]);
    const mine = finalNfts.find((f) => f.standard === 'erc721' && f.contract === n.contract && f.tokenId === n.tokenId);
    if ((mine?.owner ?? ZERO) !== onChain) throw new Error(`seed: ERC-721 ${n.tokenId} owner mismatch`);
  });
  const holders = new Set(transactions.flatMap((t) => t.nftTransfers).filter((n) => n.standard === 'erc1155').flatMap((n) => [n.from, n.to]));
  holders.delete(ZERO);
  const pairs = [...holders].flatMap((h) => [1, 2, 3, 4, 5].map((id) => [h, id]));
  const got = await rpc.batch(pairs.map(([h, id]) => call(contracts.items.address, 'Items1155', 'balanceOf', [BigInt(id), h])));
  pairs.forEach(([h, id], i) => {
    const mine = finalNfts.find((f) => f.standard === 'erc1155' && f.owner === h && f.tokenId === String(id));
    if (BigInt(mine?.amount ?? 0) !== BigInt(got[i])) throw new Error(`seed: ERC-1155 ${id} balance of ${h} mismatch`);
  });
  const rows = Object.entries(balances).flatMap(([k, bt]) => Object.entries(bt).map(([a, v]) => [k, a, v]));
  const bals = await rpc.batch(rows.map(([k, a]) => call(contracts[k].address, 'Token', 'balanceOf', [a])));
  rows.forEach(([k, a, v], i) => { if (BigInt(bals[i]) !== BigInt(v)) throw new Error(`seed: ${k} balance of ${a} mismatch`); });
}

/** SCENARIO.md: the scenario for people, generated from the manifest so it never drifts. */
export function renderScenarioMd(m) {
  const book = {};
  for (const [n, a] of Object.entries(m.accounts)) book[a.address] = n;
  for (const [k, c] of Object.entries(m.contracts)) book[c.address] = k;
  const nm = (a) => (a ? book[a] ?? a : '(creation)');
  const day = (ts) => new Date(ts * 1000).toISOString().slice(0, 10);
  const L = [];
  L.push('# EVM devnet scenario', '');
  L.push('Generated by `node devnet/evm/seed.mjs` from `devnet/evm/scenario.mjs`; do not edit by hand.',
    'The machine-readable twin is `scenario.json` (every transaction with its parties, transfers and amounts).', '');
  L.push(`Chain id ${m.chainId} (${m.chainIdHex}), anvil dev mnemonic \`${m.mnemonic}\`. ` +
    `${m.stats.transactions} transactions (${m.stats.reverted} reverted) in ${m.stats.blocks} blocks, ` +
    `${day(m.stats.firstTimestamp)} to ${day(m.stats.lastTimestamp)} (${m.stats.days} days). Genesis is 2026-01-01T00:00:00Z; ` +
    'blocks are mined with explicit timestamps, and some hold several transactions.', '');
  L.push('## The story', '',
    '- **deployer** deploys every shared contract from an EOA on day 0 (contract creation by an account), seeds the swap pool,',
    '  gives people USDC (6 decimals) and LNT (18 decimals), tops alice up monthly, mints Lantern Lights (ERC-721, on-chain',
    '  JSON + SVG `tokenURI`) mostly to bob, and Lantern Items (ERC-1155) mostly to heidi.',
    '- **alice** is the pagination wallet: hundreds of swaps through the fixed-rate pool (she sends USDC and receives LNT in',
    '  one transaction, or the reverse), USDC/LNT/ETH sends, NFT trades with bob, payroll from frank, spam airdrops, and one',
    '  swap that reverts on slippage (mined with status 0).',
    '- **bob** collects Lights, trades some with alice/carol/peggy/graceWallet, burns two, and holds and burns 1155 items.',
    '- **carol** mostly receives (USDC, LNT, ETH, NFTs, payroll); sends a little USDC back to alice and burns LNT.',
    '- **dave** has exactly 10 transactions: ETH in and out, a USDC mint, an approval, a swap, token sends.',
    '- **erin** swaps both ways, sends ETH and USDC, and makes one over-balance USDC transfer that reverts.',
    '- **frank** pays oscar, carol, erin, bob (and sometimes alice, heidi, graceWallet) every two weeks through MultiSend:',
    '  the recipients receive ETH as internal transfers of a transaction they are not the sender or recipient of.',
    '- **spammer** deploys a token named "Visit claim-rewards.example to claim" and airdrops it unsolicited (Transfer from',
    '  the zero address) to many wallets: the `possible_spam` token.',
    '- **grace** creates her smart wallet **graceWallet** through the WalletFactory (CREATE2, factory contract creation),',
    '  funds it, and acts through it (`execute`): ETH to carol (internal transfer), USDC to bob, a Light to peggy. graceWallet',
    '  implements EIP-1271 for sign-in (see below). Her second wallet (salt 0x..63) is left undeployed for EIP-6492.',
    '- **heidi** plays with 1155 items: batch and single transfers to bob, alice, peggy and carol, and batch burns.',
    '- **ivan** deploys his own Guard from his EOA, creates two wallets through the factory and pays one from the other.',
    '- **judy** makes two reverted transactions (a Guard poke with a too-large value, a transfer of a Light she does not',
    '  own), burns LNT and a Light, sends USDC to carol.',
    '- **oscar** only ever appears as an internal-call recipient of MultiSend; **peggy** only ever receives tokens/NFTs',
    '  (log-only party); **mallory** never transacts (empty history).',
    '- **curator** (dev account 20, funded by deployer) deploys Far Lanterns (ERC-721) on the last day and mints four to herself. Their metadata is **off chain**:',
    '  `ipfs://<CID>/<n>.json`, whose image is `ipfs://<CID>/<n>.svg`. `npm run dev` serves that CID from a small local gateway',
    '  (`devnet/evm/nft-metadata-server.mjs`, on 127.0.0.1:`DEVNET_NFT_PORT`, default 8547) and points `NFT_IPFS_GATEWAY` and',
    '  `NFT_METADATA_ALLOW_HOSTS` at it, so Lantern fetches the metadata in the background and the NFT page shows names and',
    '  images. Token 4 points at a file the gateway does not have: its card shows no image, and its fetch is kept as failed',
    '  (`http_status`). The integration tests and the browser tests start the same gateway and settings (`tests/integration/global-setup.ts`, `scripts/e2e-server.mjs`); without it the fetcher fails these URIs and makes no other request.',
    '- **holder** (dev account 21) is what a wallet holds now and who may spend it (days 201 to 203, after everything else):',
    '  **issuer** (22) deploys and mints to her a rebasing token (rLNT: `rebase` changes every balance with no Transfer log),',
    '  a fee-on-transfer token on OpenZeppelin\'s ERC-20 (TAX: 2% of each transfer goes to the treasury), an MKR/USDT-style',
    '  token (OLG: bytes32 `name` and `symbol`, `transfer` and `approve` return nothing) and a token whose `balanceOf` always',
    '  reverts and whose `decimals` lies (BROKEN: 300), plus three Lantern Keys (OpenZeppelin ERC-721). The deployer gives her',
    '  USDC and LNT; she burns all the LNT (a token she no longer holds) and the spammer airdrops her the spam token. She',
    '  approves the pool for unlimited USDC, **merchant** (23) for 1000 TAX, of which merchant then pulls 250 with',
    '  `transferFrom` (partly used; OpenZeppelin emits no Approval for it, so only `allowance` says 750 remain), merchant for',
    '  500 OLG and revokes it (`approve(merchant, 0)`), and makes merchant and issuer operators of her Keys',
    '  (`setApprovalForAll`), revoking issuer the next day. Her balances and approvals, read from the chain at the last',
    '  block, are below.', '');
  L.push('## Accounts', '', '| name | address | dev index | txs touching | sent | role |', '|---|---|---|---|---|---|');
  for (const [n, a] of Object.entries(m.accounts)) L.push(`| ${n} | \`${a.address}\` | ${a.index} | ${a.txCount} | ${a.sentCount} | ${a.role} |`);
  L.push('', '"txs touching" counts transactions where the address is the sender, the recipient, a created contract, a party',
    'of an internal call, or a party of an ERC-20/721/1155 transfer: exactly what the wallet history must return.', '');
  L.push('## Contracts', '', '| key | address | kind | created by | block | txs touching | facts |', '|---|---|---|---|---|---|---|');
  for (const [k, c] of Object.entries(m.contracts)) {
    const odd = c.rebasing ? 'rebasing' : c.feeOnTransfer ? 'fee on transfer' : c.legacy ? 'bytes32 name, no return values' : c.balanceReverts ? 'balanceOf reverts, decimals lies' : null;
    const facts = [c.name, c.symbol, c.decimals !== undefined ? `${c.decimals} decimals` : null, c.owner ? `owner ${c.owner}` : null, c.possibleSpam ? 'spam' : null, odd].filter(Boolean).join(', ');
    L.push(`| ${k} | \`${c.address}\` | ${c.kind} | ${c.deployer} (${c.createdBy}) | ${c.blockNumber} | ${c.txCount} | ${facts} |`);
  }
  L.push('', '## Transaction kinds', '', '| kind | count |', '|---|---|');
  for (const [k, n] of Object.entries(m.stats.kinds)) L.push(`| ${k} | ${n} |`);
  L.push('', '## Notable transactions', '', '| kind | hash | block | date | from | to | what |', '|---|---|---|---|---|---|---|');
  const notable = m.transactions.filter((t) => ['revert', 'factory_deploy', 'deploy', 'airdrop'].includes(t.kind) || t.nftTransfers.some((n) => n.to === '0x0000000000000000000000000000000000000000'));
  const firstOf = (k) => m.transactions.find((t) => t.kind === k);
  for (const t of [...notable, firstOf('multisend'), firstOf('swap'), firstOf('erc1155_batch'), firstOf('wallet_execute')].filter(Boolean).sort((a, b) => a.blockNumber - b.blockNumber || a.transactionIndex - b.transactionIndex)) {
    L.push(`| ${t.kind} | \`${t.hash}\` | ${t.blockNumber} | ${day(t.timestamp)} | ${nm(t.from)} | ${nm(t.to)} | ${t.note}${t.status === 0 ? ' (status 0)' : ''} |`);
  }
  L.push('', '## Sign-in wallets', '',
    `- EIP-1271: graceWallet \`${m.eip1271.wallet}\`, owner grace \`${m.eip1271.owner}\` (dev account index ${m.eip1271.ownerIndex}).`,
    `  ${m.eip1271.checks}`,
    `- EIP-6492: undeployed wallet \`${m.eip1271.counterfactual.address}\` (owner grace, salt \`${m.eip1271.counterfactual.salt}\`),`,
    `  factory \`${m.eip1271.counterfactual.factory}\`, factoryData = \`createWallet(owner, salt)\` calldata (in scenario.json).`, '');
  if (m.holdings) {
    const fmt = (v, key) => {
      const c = m.contracts[key];
      if (v === null) return 'reverts';
      return typeof c?.decimals === 'number' ? formatUnits(BigInt(v), c.decimals) : v;
    };
    L.push('## What holder and merchant hold, and who may spend it', '',
      'Read from the chain at the last block (`balanceOf`, `allowance`, `isApprovedForAll`); every token whose Transfer logs name',
      'the wallet, every pair its Approval / ApprovalForAll logs name. Exactly what the tokens and approvals operations must answer',
      '(zero balances and zero allowances are not listed there).', '');
    for (const [who, h] of Object.entries(m.holdings)) {
      L.push(`### ${who}`, '', '| token | balance |', '|---|---|');
      for (const t of h.tokens) L.push(`| ${t.tokenKey} | ${fmt(t.balance, t.tokenKey)} |`);
      if (h.approvals.length) {
        L.push('', '| kind | token | spender | allowance now |', '|---|---|---|---|');
        for (const a of h.approvals) {
          const v = a.kind === 'operator' ? (a.value === '1' ? 'operator' : 'revoked') : a.value === '0' ? 'revoked (0)' : BigInt(a.value) === maxUint256 ? 'unlimited' : fmt(a.value, a.tokenKey);
          L.push(`| ${a.kind} | ${a.tokenKey} | ${a.spenderName ?? a.spender} | ${v} |`);
        }
      }
      L.push('');
    }
  }
  L.push('## Final NFT ownership', '', '| contract | standard | token id | owner | amount |', '|---|---|---|---|---|');
  for (const f of m.final_nft_ownership) L.push(`| ${f.contractKey} | ${f.standard} | ${f.tokenId} | ${f.ownerName ?? f.owner} | ${f.amount} |`);
  L.push('');
  return `${L.join('\n')}\n${renderSecondChainMd()}`;
}

/** Pretty at the top, one line per transaction / NFT row: readable and diffable. */
export function stringifyManifest(m) {
  const rows = (arr) => `[\n${arr.map((x) => `  ${JSON.stringify(x)}`).join(',\n')}\n ]`;
  const parts = Object.entries(m).map(([k, v]) => {
    const body = k === 'transactions' || k === 'final_nft_ownership' ? rows(v) : JSON.stringify(v, null, 1).replace(/\n/g, '\n ');
    return ` ${JSON.stringify(k)}: ${body}`;
  });
  return `{\n${parts.join(',\n')}\n}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { spawnAnvil } = await import('./anvil.mjs');
  const args = process.argv.slice(2);
  const port = Number(args[args.indexOf('--port') + 1] || 0) || 28545;
  const t0 = Date.now();
  const anvil = await spawnAnvil({ port, args: ANVIL_ARGS });
  try {
    const manifest = await seed({ rpcUrl: anvil.url, log: console.log });
    console.log(`cold seed: ${Date.now() - t0} ms (anvil start + seed + manifest)`);
    const json = stringifyManifest(manifest);
    const md = renderScenarioMd(manifest);
    if (args.includes('--check')) {
      const same = readFileSync(MANIFEST_PATH, 'utf8') === json && readFileSync(SCENARIO_MD_PATH, 'utf8') === md;
      console.log(same ? 'scenario.json and SCENARIO.md reproduce exactly' : 'DIFFERENT from the committed scenario');
      process.exitCode = same ? 0 : 1;
    } else {
      writeFileSync(MANIFEST_PATH, json);
      writeFileSync(SCENARIO_MD_PATH, md);
      console.log(`wrote ${MANIFEST_PATH} (${manifest.stats.transactions} txs) and ${SCENARIO_MD_PATH}`);
    }
  } finally {
    await anvil.stop();
  }
}
