// The seeded scenario as a plan: who sends what, when. Pure and deterministic (a fixed PRNG seed,
// fixed timestamps, locally tracked nonces), so every run signs the very same transactions.
// seed.mjs executes the plan; SCENARIO.md describes it for people.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  encodeAbiParameters, encodeDeployData, encodeFunctionData, getContractAddress, keccak256, parseEther, parseUnits,
} from 'viem';
import { HOLDINGS_ACCOUNTS, holdingsContracts, planHoldings } from './holdings.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

export const CHAIN_ID = 31337;
export const MNEMONIC = 'test test test test test test test test test test test junk';
/** 2026-01-01T00:00:00Z: the genesis block's timestamp. */
export const GENESIS_TIMESTAMP = 1767225600;
export const DAY = 86_400;
export const DEV_ACCOUNTS = 20;
export const DEV_BALANCE_ETH = 1000;
export const MAX_FEE_PER_GAS = 2_000_000_000n;
export const MAX_PRIORITY_FEE_PER_GAS = 100_000_000n;

/** Named EOAs: anvil dev account index (derived from MNEMONIC) and what they do. */
export const ACCOUNTS = {
  deployer: { index: 0, role: 'Deploys the contracts from an EOA and mints tokens, NFTs and 1155 items' },
  alice: { index: 1, role: 'Busy trader: over 300 transactions (swaps, token and ETH sends); the pagination wallet' },
  bob: { index: 2, role: 'NFT collector: receives most Lantern Lights, trades and burns some, holds 1155 items' },
  carol: { index: 3, role: 'Token receiver: mostly receives USDC, LNT and ETH; sends a little back, burns LNT' },
  dave: { index: 4, role: 'Casual wallet with exactly 10 transactions' },
  erin: { index: 5, role: 'DeFi user: swaps both ways, one reverted over-balance transfer' },
  frank: { index: 6, role: 'Payroll: pays several people at once through MultiSend (internal ETH transfers)' },
  spammer: { index: 7, role: 'Deploys the spam token and airdrops it, unsolicited, to many wallets' },
  grace: { index: 8, role: 'Owner of the EIP-1271 smart wallet (graceWallet), which she created through the factory' },
  heidi: { index: 9, role: 'ERC-1155 gamer: batch and single transfers of items, burns items' },
  ivan: { index: 10, role: 'Deploys a contract directly and two wallets through the factory; wallet-to-wallet calls' },
  judy: { index: 11, role: 'Makes the reverted transactions; burns tokens and an NFT' },
  oscar: { index: 12, role: 'Only ever paid through MultiSend: appears only as an internal-call recipient' },
  peggy: { index: 13, role: 'Only ever receives tokens and NFTs (log-only party, never sends)' },
  mallory: { index: 14, role: 'Never transacts: the empty history' },
  // Index 20: beyond anvil's 20 funded accounts (15-19 belong to the synthetic benchmark wallet), so the
  // deployer funds her; the genesis and every earlier block stay as they were.
  curator: { index: 20, role: 'Deploys Far Lanterns (ERC-721 whose metadata lives off chain, at ipfs:// URIs) and keeps them' },
  // What a wallet holds now and who may spend it (holdings.mjs).
  ...HOLDINGS_ACCOUNTS,
};

/**
 * Far Lanterns' token URIs: off chain, on IPFS. `npm run dev` serves this CID from a local gateway
 * (devnet/evm/nft-metadata-server.mjs) and points NFT_IPFS_GATEWAY at it, so the URIs hold no port.
 * Token 4's file does not exist: the page shows its card without an image, and the API its reason.
 */
export const FAR_LANTERNS_CID = 'bafybeifarlanternsdevnetmetadatazzzzzzzzzzzzzzzzzzzzzzzzzzz';
export const FAR_LANTERN_URIS = [1, 2, 3].map((n) => `ipfs://${FAR_LANTERNS_CID}/${n}.json`).concat(`ipfs://${FAR_LANTERNS_CID}/missing.json`);

export function loadArtifacts() {
  const names = ['Token', 'Lights721', 'Items1155', 'MultiSend', 'FixedRatePool', 'Guard', 'SmartWallet', 'WalletFactory', 'Linked721',
    'RebasingToken', 'FeeToken', 'LegacyToken', 'BrokenToken', 'Keys721'];
  return Object.fromEntries(
    names.map((n) => [n, JSON.parse(readFileSync(path.join(here, 'artifacts', `${n}.json`), 'utf8'))]),
  );
}

/** mulberry32: small, fast, and the same everywhere (the foreign test chain draws from it too). */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const USDC = (n) => parseUnits(String(n), 6);
export const LNT = (n) => parseUnits(String(n), 18);
const B_PER_A = 2_000_000_000_000n;

/** The salt grace would use for a second wallet she has not deployed (EIP-6492 sign-in). */
export const COUNTERFACTUAL_SALT = `0x${'0'.repeat(62)}63`;
const saltOf = (n) => `0x${n.toString(16).padStart(64, '0')}`;

/**
 * @param {Record<string, `0x${string}`>} addressOf  name -> address of the named EOAs
 * @returns {{ blocks: {timestamp: number, txs: object[]}[], contracts: object, counterfactual: object }}
 */
export function buildPlan(addressOf, artifacts = loadArtifacts()) {
  const rand = prng(20260101);
  const pick = (arr) => arr[Math.floor(rand() * arr.length)];
  const between = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const nonces = Object.fromEntries(Object.keys(addressOf).map((n) => [n, 0]));
  const A = addressOf;

  // --- contract addresses, known ahead from deployer nonces ---
  const contracts = {};
  const deployOrder = [
    ['usdc', 'Token', ['Devnet USD Coin', 'USDC', 6], 'erc20'],
    ['lnt', 'Token', ['Lantern Token', 'LNT', 18], 'erc20'],
    ['lights', 'Lights721', ['Lantern Lights', 'LIGHT'], 'erc721'],
    ['items', 'Items1155', ['Lantern Items', 'LITEM'], 'erc1155'],
    ['multisend', 'MultiSend', [], 'multisend'],
    ['factory', 'WalletFactory', [], 'factory'],
    ['pool', 'FixedRatePool', null, 'pool'],
    ['guard', 'Guard', [], 'guard'],
  ];
  deployOrder.forEach(([key, artifact, , kind], i) => {
    contracts[key] = {
      address: getContractAddress({ from: A.deployer, nonce: BigInt(i) }).toLowerCase(),
      artifact, kind, deployer: 'deployer',
    };
  });
  contracts.pool.args = [contracts.usdc.address, contracts.lnt.address];
  contracts.spam = {
    address: getContractAddress({ from: A.spammer, nonce: 0n }).toLowerCase(),
    artifact: 'Token', kind: 'erc20', deployer: 'spammer', spam: true,
  };
  contracts.farLanterns = {
    address: getContractAddress({ from: A.curator, nonce: 0n }).toLowerCase(), artifact: 'Linked721', kind: 'erc721', deployer: 'curator',
  };
  contracts.ivanGuard = {
    address: getContractAddress({ from: A.ivan, nonce: 0n }).toLowerCase(), artifact: 'Guard', kind: 'guard', deployer: 'ivan',
  };
  const walletAddr = (owner, salt) =>
    getContractAddress({
      opcode: 'CREATE2',
      from: contracts.factory.address,
      salt: keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'bytes32' }], [owner, salt])),
      bytecode: encodeDeployData({ abi: artifacts.SmartWallet.abi, bytecode: artifacts.SmartWallet.bytecode, args: [owner] }),
    }).toLowerCase();
  contracts.graceWallet = { address: walletAddr(A.grace, saltOf(1)), artifact: 'SmartWallet', kind: 'smart_wallet', owner: 'grace', salt: saltOf(1), deployer: 'factory' };
  contracts.ivanWallet1 = { address: walletAddr(A.ivan, saltOf(1)), artifact: 'SmartWallet', kind: 'smart_wallet', owner: 'ivan', salt: saltOf(1), deployer: 'factory' };
  contracts.ivanWallet2 = { address: walletAddr(A.ivan, saltOf(2)), artifact: 'SmartWallet', kind: 'smart_wallet', owner: 'ivan', salt: saltOf(2), deployer: 'factory' };
  const counterfactual = {
    owner: 'grace',
    salt: COUNTERFACTUAL_SALT,
    factory: contracts.factory.address,
    factoryData: encodeFunctionData({ abi: artifacts.WalletFactory.abi, functionName: 'createWallet', args: [A.grace, COUNTERFACTUAL_SALT] }),
    address: walletAddr(A.grace, COUNTERFACTUAL_SALT),
  };
  Object.assign(contracts, holdingsContracts(A.issuer));
  const C = Object.fromEntries(Object.entries(contracts).map(([k, v]) => [k, v.address]));
  const who = { ...A, ...C };

  // --- a model of balances, so generated transfers never revert by accident ---
  const bal = { usdc: {}, lnt: {} };
  const get = (t, a) => bal[t][a] ?? 0n;
  const add = (t, a, v) => { bal[t][a] = get(t, a) + v; };
  const nftOwner = new Map(); // tokenId -> address
  let nextNft = 1;
  const items = {}; // `${id}:${addr}` -> amount
  const itemBal = (id, a) => items[`${id}:${a}`] ?? 0n;
  const addItem = (id, a, v) => { items[`${id}:${a}`] = itemBal(id, a) + v; };
  const nftsOf = (a) => [...nftOwner].filter(([, o]) => o === a).map(([id]) => id);

  const enc = (artifact, functionName, args) => encodeFunctionData({ abi: artifacts[artifact].abi, functionName, args });
  const tokenCall = (fn, args) => enc('Token', fn, args);

  // --- intents: [timestamp, seq, fn(): tx | null] ---
  const intents = [];
  let seq = 0;
  const at = (t, fn) => intents.push([t, seq++, fn]);
  const dayAt = (d, hour = null) => GENESIS_TIMESTAMP + d * DAY + (hour === null ? between(6 * 3600, 23 * 3600) : hour * 3600);
  const tx = (from, to, kind, note, { data = '0x', value = 0n, gas, revert = false } = {}) =>
    ({ from, to, kind, note, data, value, gas: BigInt(gas), expectStatus: revert ? 0 : 1 });
  const isContract = (addr) => Object.values(C).includes(addr);
  const ethGas = (to) => (isContract(to) ? 60_000 : 21_000);
  const nameOf = (addr) => Object.keys(who).find((k) => who[k] === addr) ?? addr;

  // Day 0: deployments from EOAs and initial liquidity/balances.
  deployOrder.forEach(([key, artifact, args], i) => {
    at(GENESIS_TIMESTAMP + 3600 + i * 300, () => tx('deployer', null, 'deploy', `deployer deploys ${artifact} (${key})`, {
      data: encodeDeployData({ abi: artifacts[artifact].abi, bytecode: artifacts[artifact].bytecode, args: contracts[key].args ?? args }),
      gas: 4_000_000,
    }));
  });
  const mint = (t, token, to, amount, note) => at(t, () => {
    add(token, who[to], amount);
    return tx('deployer', C[token], 'erc20_mint', note ?? `mint ${token.toUpperCase()} to ${to}`, { data: tokenCall('mint', [who[to], amount]), gas: 90_000 });
  });
  mint(GENESIS_TIMESTAMP + 7200, 'usdc', 'pool', USDC(1_000_000), 'seed the pool with USDC');
  mint(GENESIS_TIMESTAMP + 7200, 'lnt', 'pool', LNT(2_000_000), 'seed the pool with LNT');
  const initial = [['usdc', 'alice', 60_000], ['usdc', 'bob', 5_000], ['usdc', 'carol', 1_500], ['usdc', 'erin', 20_000],
    ['usdc', 'heidi', 2_000], ['usdc', 'judy', 300], ['lnt', 'alice', 5_000], ['lnt', 'bob', 1_000], ['lnt', 'judy', 500], ['lnt', 'ivan', 100]];
  initial.forEach(([tok, to, n], i) => mint(GENESIS_TIMESTAMP + 10_800 + i * 60, tok, to, tok === 'usdc' ? USDC(n) : LNT(n)));
  at(GENESIS_TIMESTAMP + 12 * 3600, () => tx('spammer', null, 'deploy', 'spammer deploys the spam token', {
    data: encodeDeployData({ abi: artifacts.Token.abi, bytecode: artifacts.Token.bytecode, args: ['Visit claim-rewards.example to claim', 'CLAIM-REWARDS.EXAMPLE', 18] }),
    gas: 4_000_000,
  }));

  // Day 1-3: approvals, wallets through the factory, ivan's own deployment.
  const approve = (t, owner, token) => at(t, () => tx(owner, C[token], 'approve', `${owner} approves the pool for ${token.toUpperCase()}`, {
    data: tokenCall('approve', [C.pool, 2n ** 256n - 1n]), gas: 60_000,
  }));
  for (const o of ['alice', 'erin']) for (const t of ['usdc', 'lnt']) approve(dayAt(1), o, t);
  const createWallet = (t, owner, salt, key) => at(t, () => tx(owner, C.factory, 'factory_deploy', `${owner} creates ${key} through the factory`, {
    data: enc('WalletFactory', 'createWallet', [A[owner], salt]), gas: 1_000_000,
  }));
  createWallet(dayAt(2, 9), 'grace', saltOf(1), 'graceWallet');
  at(dayAt(2, 10), () => tx('grace', C.graceWallet, 'eth_send', 'grace funds her smart wallet', { value: parseEther('5'), gas: 60_000 }));
  mint(dayAt(2, 11), 'usdc', 'graceWallet', USDC(3_000));
  createWallet(dayAt(3, 9), 'ivan', saltOf(1), 'ivanWallet1');
  createWallet(dayAt(3, 10), 'ivan', saltOf(2), 'ivanWallet2');
  at(dayAt(3, 8), () => tx('ivan', null, 'deploy', 'ivan deploys his own Guard from his EOA', { data: artifacts.Guard.bytecode, gas: 1_000_000 }));

  // Helpers for generated activity.
  const sendToken = (t, from, token, to, amount) => at(t, () => {
    let v = typeof amount === 'function' ? amount() : amount;
    if (get(token, who[from]) < v) v = get(token, who[from]) / 2n;
    if (v === 0n) return null;
    add(token, who[from], -v); add(token, who[to], v);
    return tx(from, C[token], 'erc20_transfer', `${from} sends ${token.toUpperCase()} to ${to}`, { data: tokenCall('transfer', [who[to], v]), gas: 80_000 });
  });
  const sendEth = (t, from, to, ether) => at(t, () => tx(from, who[to], 'eth_send', `${from} sends ETH to ${to}`, { value: parseEther(ether), gas: ethGas(who[to]) }));
  const swap = (t, from, dir, whole) => at(t, () => {
    const a = who[from];
    if (dir === 'AtoB') {
      let amt = USDC(whole);
      if (get('usdc', a) < amt) amt = get('usdc', a) / 2n;
      if (amt < USDC(1)) return null;
      add('usdc', a, -amt); add('usdc', C.pool, amt);
      add('lnt', a, amt * B_PER_A); add('lnt', C.pool, -amt * B_PER_A);
      return tx(from, C.pool, 'swap', `${from} swaps USDC for LNT`, { data: enc('FixedRatePool', 'swapAForB', [amt, amt * B_PER_A]), gas: 150_000 });
    }
    let amt = LNT(whole);
    if (get('lnt', a) < amt) amt = (get('lnt', a) / 2n / B_PER_A) * B_PER_A;
    if (amt < LNT(2)) return null;
    const out = amt / B_PER_A;
    add('lnt', a, -amt); add('lnt', C.pool, amt);
    add('usdc', a, out); add('usdc', C.pool, -out);
    return tx(from, C.pool, 'swap', `${from} swaps LNT for USDC`, { data: enc('FixedRatePool', 'swapBForA', [amt, out]), gas: 150_000 });
  });
  const mintNft = (t, to) => at(t, () => {
    const id = nextNft++;
    nftOwner.set(id, who[to]);
    return tx('deployer', C.lights, 'nft_mint', `mint Lantern Light #${id} to ${to}`, { data: enc('Lights721', 'mint', [who[to]]), gas: 200_000 });
  });
  const moveNft = (t, from, to) => at(t, () => {
    const owned = nftsOf(who[from]);
    if (!owned.length) return null;
    const id = owned[Math.floor(rand() * owned.length)];
    nftOwner.set(id, who[to]);
    return tx(from, C.lights, 'nft_transfer', `${from} sends Lantern Light #${id} to ${to}`, {
      data: enc('Lights721', 'safeTransferFrom', [who[from], who[to], BigInt(id)]), gas: 150_000,
    });
  });
  const burnNft = (t, from) => at(t, () => {
    const owned = nftsOf(who[from]);
    if (!owned.length) return null;
    const id = owned[0];
    nftOwner.delete(id);
    return tx(from, C.lights, 'nft_burn', `${from} burns Lantern Light #${id}`, { data: enc('Lights721', 'burn', [BigInt(id)]), gas: 100_000 });
  });
  const mintItems = (t, to, ids, amounts) => at(t, () => {
    ids.forEach((id, i) => addItem(id, who[to], BigInt(amounts[i])));
    const single = ids.length === 1;
    return tx('deployer', C.items, 'erc1155_mint', `mint Lantern Items ${ids.join(',')} to ${to}`, {
      data: single ? enc('Items1155', 'mint', [who[to], BigInt(ids[0]), BigInt(amounts[0])])
        : enc('Items1155', 'mintBatch', [who[to], ids.map(BigInt), amounts.map(BigInt)]),
      gas: 120_000 + 40_000 * ids.length,
    });
  });
  const moveItems = (t, from, to, wantIds) => at(t, () => {
    const ids = []; const amounts = [];
    for (const id of wantIds) {
      const have = itemBal(id, who[from]);
      if (have === 0n) continue;
      const amt = have === 1n ? 1n : BigInt(1 + Math.floor(rand() * Number(have / 2n)));
      ids.push(id); amounts.push(amt);
    }
    if (!ids.length) return null;
    ids.forEach((id, i) => { addItem(id, who[from], -amounts[i]); addItem(id, who[to], amounts[i]); });
    if (ids.length === 1) {
      return tx(from, C.items, 'erc1155_transfer', `${from} sends ${amounts[0]} of item ${ids[0]} to ${to}`, {
        data: enc('Items1155', 'safeTransferFrom', [who[from], who[to], BigInt(ids[0]), amounts[0], '0x']), gas: 120_000,
      });
    }
    return tx(from, C.items, 'erc1155_batch', `${from} batch-sends items ${ids.join(',')} to ${to}`, {
      data: enc('Items1155', 'safeBatchTransferFrom', [who[from], who[to], ids.map(BigInt), amounts, '0x']), gas: 100_000 + 40_000 * ids.length,
    });
  });
  const burnItems = (t, from, wantIds) => at(t, () => {
    const ids = []; const amounts = [];
    for (const id of wantIds) {
      const have = itemBal(id, who[from]);
      if (have > 0n) { ids.push(id); amounts.push(have > 2n ? have / 3n : have); }
    }
    if (!ids.length) return null;
    ids.forEach((id, i) => addItem(id, who[from], -amounts[i]));
    return tx(from, C.items, 'erc1155_burn', `${from} burns items ${ids.join(',')}`, {
      data: ids.length === 1 ? enc('Items1155', 'burn', [BigInt(ids[0]), amounts[0]])
        : enc('Items1155', 'burnBatch', [ids.map(BigInt), amounts]),
      gas: 60_000 + 30_000 * ids.length,
    });
  });
  const execute = (t, owner, wallet, target, value, data, kind, note) => at(t, () => {
    const d = typeof data === 'function' ? data() : data;
    if (d === null) return null;
    return tx(owner, C[wallet], kind, note, { data: enc('SmartWallet', 'execute', [target, value, d]), gas: 300_000 });
  });

  // --- dave: exactly ten transactions touch him ---
  sendEth(dayAt(10), 'frank', 'dave', '1');
  sendEth(dayAt(12), 'dave', 'carol', '0.1');
  mint(dayAt(20, 9), 'usdc', 'dave', USDC(250));
  at(dayAt(21, 9), () => tx('dave', C.usdc, 'approve', 'dave approves the pool for USDC', { data: tokenCall('approve', [C.pool, USDC(100)]), gas: 60_000 }));
  swap(dayAt(21, 10), 'dave', 'AtoB', 100);
  sendToken(dayAt(40), 'dave', 'usdc', 'alice', USDC(20));
  sendEth(dayAt(60), 'alice', 'dave', '0.05');
  sendEth(dayAt(90), 'dave', 'bob', '0.2');
  sendToken(dayAt(130), 'dave', 'lnt', 'carol', LNT(50));
  sendEth(dayAt(170), 'dave', 'frank', '0.1');

  // --- alice: the busy trader ---
  const aliceTokenTo = ['carol', 'erin', 'bob', 'peggy', 'frank', 'graceWallet'];
  const aliceEthTo = ['bob', 'carol', 'erin', 'frank', 'ivan', 'heidi', 'graceWallet'];
  for (let i = 0; i < 105; i++) swap(dayAt(between(4, 199)), 'alice', 'AtoB', between(50, 1500));
  for (let i = 0; i < 65; i++) swap(dayAt(between(8, 199)), 'alice', 'BtoA', between(100, 2500));
  for (let i = 0; i < 60; i++) sendToken(dayAt(between(4, 199)), 'alice', 'usdc', pick(aliceTokenTo), USDC(between(5, 500)));
  for (let i = 0; i < 30; i++) sendToken(dayAt(between(4, 199)), 'alice', 'lnt', pick(['carol', 'bob', 'heidi', 'peggy']), LNT(between(1, 300)));
  for (let i = 0; i < 55; i++) sendEth(dayAt(between(4, 199)), 'alice', pick(aliceEthTo), (between(1, 200) / 100).toFixed(2));
  for (let i = 0; i < 3; i++) at(dayAt(between(30, 190)), () => tx('alice', C.guard, 'contract_call', 'alice pokes the Guard', { data: enc('Guard', 'poke', [BigInt(between(1, 99))]), gas: 60_000 }));
  for (let m = 1; m <= 6; m++) mint(dayAt(m * 30, 8), 'usdc', 'alice', USDC(20_000), 'monthly USDC top-up for alice');
  at(dayAt(101, 12), () => tx('alice', C.pool, 'revert', 'alice swaps with a minimum output the pool cannot meet (reverts: Pool: slippage)', {
    data: enc('FixedRatePool', 'swapAForB', [USDC(10), LNT(1_000_000)]), gas: 150_000, revert: true,
  }));

  // --- NFTs: deployer mints, bob collects ---
  const nftPlan = [['bob', 26], ['alice', 6], ['judy', 2], ['heidi', 4], ['peggy', 3], ['graceWallet', 2], ['carol', 2], ['ivan', 2]];
  for (const [to, n] of nftPlan) for (let i = 0; i < n; i++) mintNft(dayAt(between(5, 120)), to);
  for (let i = 0; i < 6; i++) moveNft(dayAt(between(125, 195)), 'bob', 'alice');
  for (let i = 0; i < 3; i++) moveNft(dayAt(between(125, 195)), 'bob', 'carol');
  for (let i = 0; i < 4; i++) moveNft(dayAt(between(125, 195)), 'bob', 'peggy');
  moveNft(dayAt(150), 'bob', 'graceWallet');
  for (let i = 0; i < 5; i++) moveNft(dayAt(between(125, 199)), 'alice', 'bob');
  for (let i = 0; i < 2; i++) moveNft(dayAt(between(125, 199)), 'heidi', 'bob');
  burnNft(dayAt(160), 'bob');
  burnNft(dayAt(175), 'bob');
  burnNft(dayAt(180), 'judy');
  for (let i = 0; i < 14; i++) sendEth(dayAt(between(10, 199)), 'bob', 'alice', (between(1, 50) / 100).toFixed(2));
  for (let i = 0; i < 5; i++) sendToken(dayAt(between(10, 199)), 'bob', 'usdc', 'carol', USDC(between(10, 200)));

  // --- 1155 items ---
  mintItems(dayAt(6, 9), 'heidi', [1, 2, 3], [500, 200, 50]);
  mintItems(dayAt(40, 9), 'heidi', [1, 2, 3, 4], [300, 100, 30, 2]);
  mintItems(dayAt(80, 9), 'heidi', [4, 5], [3, 10]);
  mintItems(dayAt(120, 9), 'heidi', [1, 3, 5], [400, 25, 5]);
  mintItems(dayAt(15, 9), 'bob', [1], [100]);
  mintItems(dayAt(55, 9), 'bob', [2], [40]);
  mintItems(dayAt(95, 9), 'bob', [5], [1]);
  mintItems(dayAt(25, 9), 'alice', [3], [10]);
  mintItems(dayAt(140, 9), 'alice', [1], [60]);
  mintItems(dayAt(45, 9), 'graceWallet', [2], [5]);
  for (let i = 0; i < 5; i++) moveItems(dayAt(between(10, 199)), 'heidi', 'bob', [1, 2, 3, 4, 5].filter(() => rand() < 0.6));
  for (let i = 0; i < 4; i++) moveItems(dayAt(between(10, 199)), 'heidi', 'alice', [1, 2, 3].filter(() => rand() < 0.7));
  for (let i = 0; i < 3; i++) moveItems(dayAt(between(10, 199)), 'heidi', 'peggy', [1, 2, 5].filter(() => rand() < 0.7));
  for (let i = 0; i < 6; i++) moveItems(dayAt(between(10, 199)), 'heidi', pick(['bob', 'carol']), [pick([1, 2, 3])]);
  for (let i = 0; i < 3; i++) moveItems(dayAt(between(100, 199)), 'bob', 'alice', [pick([1, 2])]);
  burnItems(dayAt(150), 'heidi', [1, 2, 3]);
  burnItems(dayAt(185), 'heidi', [1, 5]);
  burnItems(dayAt(170), 'bob', [1]);
  burnItems(dayAt(190), 'bob', [2]);

  // --- frank: payroll through MultiSend ---
  for (let k = 0; k < 14; k++) {
    const d = 7 + k * 14;
    const base = ['oscar', 'carol', 'erin', 'bob'];
    const extra = k % 3 === 0 ? ['alice'] : k % 3 === 1 ? ['heidi'] : [];
    if (k === 6) extra.push('graceWallet');
    const recipients = [...base, ...extra];
    at(dayAt(d, 15), () => {
      const amounts = recipients.map((_, i) => parseEther(String((i + 1) / 10 + k / 100)));
      const total = amounts.reduce((x, y) => x + y, 0n);
      return tx('frank', C.multisend, 'multisend', `frank pays ${recipients.join(', ')} through MultiSend`, {
        data: enc('MultiSend', 'send', [recipients.map((r) => who[r]), amounts]), value: total, gas: 60_000 + 45_000 * recipients.length,
      });
    });
  }

  // --- spammer: unsolicited airdrops ---
  const victims = [['alice', 'bob', 'carol', 'erin'], ['heidi', 'peggy', 'graceWallet', 'ivan'], ['alice', 'judy', 'frank', 'bob'],
    ['carol', 'erin', 'heidi', 'peggy', 'grace'], ['alice', 'bob', 'ivan'], ['alice', 'carol', 'peggy', 'judy', 'erin', 'heidi']];
  victims.forEach((v, k) => at(dayAt(15 + k * 30, 4), () => tx('spammer', C.spam, 'airdrop', `spam airdrop to ${v.join(', ')}`, {
    data: tokenCall('airdrop', [v.map((n) => who[n]), LNT(1_000 + k * 500)]), gas: 60_000 + 50_000 * v.length,
  })));

  // --- carol ---
  for (let i = 0; i < 10; i++) sendToken(dayAt(between(30, 199)), 'carol', 'usdc', 'alice', USDC(between(5, 50)));
  for (let i = 0; i < 3; i++) sendEth(dayAt(between(30, 199)), 'carol', 'erin', '0.25');
  at(dayAt(150), () => { const v = get('lnt', A.carol) / 4n; if (!v) return null; add('lnt', A.carol, -v); return tx('carol', C.lnt, 'erc20_burn', 'carol burns some LNT', { data: tokenCall('burn', [v]), gas: 60_000 }); });

  // --- erin ---
  for (let i = 0; i < 30; i++) swap(dayAt(between(4, 199)), 'erin', 'AtoB', between(20, 800));
  for (let i = 0; i < 22; i++) swap(dayAt(between(10, 199)), 'erin', 'BtoA', between(40, 1600));
  for (let i = 0; i < 6; i++) sendEth(dayAt(between(4, 199)), 'erin', 'alice', '0.3');
  for (let i = 0; i < 6; i++) sendToken(dayAt(between(4, 199)), 'erin', 'usdc', 'carol', USDC(between(10, 90)));
  at(dayAt(77, 13), () => tx('erin', C.usdc, 'revert', 'erin sends more USDC than she holds (reverts: Token: balance)', {
    data: tokenCall('transfer', [A.carol, USDC(10_000_000)]), gas: 80_000, revert: true,
  }));

  // --- grace and her smart wallet ---
  for (let i = 0; i < 3; i++) sendEth(dayAt(between(20, 190)), 'grace', 'graceWallet', '1');
  for (let i = 0; i < 2; i++) sendEth(dayAt(between(20, 190)), 'grace', 'alice', '0.5');
  for (let i = 0; i < 4; i++) execute(dayAt(between(20, 199)), 'grace', 'graceWallet', A.carol, parseEther('0.4'), '0x', 'wallet_execute', 'graceWallet pays carol ETH (internal transfer)');
  for (let i = 0; i < 4; i++) {
    execute(dayAt(between(20, 199)), 'grace', 'graceWallet', C.usdc, 0n, () => {
      const v = USDC(between(10, 200));
      if (get('usdc', C.graceWallet) < v) return null;
      add('usdc', C.graceWallet, -v); add('usdc', A.bob, v);
      return tokenCall('transfer', [A.bob, v]);
    }, 'wallet_execute', 'graceWallet sends USDC to bob');
  }
  execute(dayAt(196), 'grace', 'graceWallet', C.lights, 0n, () => {
    const owned = nftsOf(C.graceWallet);
    if (!owned.length) return null;
    nftOwner.set(owned[0], A.peggy);
    return enc('Lights721', 'transferFrom', [C.graceWallet, A.peggy, BigInt(owned[0])]);
  }, 'wallet_execute', 'graceWallet gives a Lantern Light to peggy');
  execute(dayAt(33), 'grace', 'graceWallet', C.guard, 0n, enc('Guard', 'poke', [7n]), 'wallet_execute', 'graceWallet pokes the Guard');

  // --- heidi, ivan, judy ---
  for (let i = 0; i < 6; i++) sendEth(dayAt(between(10, 199)), 'heidi', 'bob', '0.15');
  for (let i = 0; i < 2; i++) sendEth(dayAt(between(10, 199)), 'ivan', 'ivanWallet1', '2');
  for (let i = 0; i < 2; i++) execute(dayAt(between(40, 199)), 'ivan', 'ivanWallet1', C.ivanWallet2, parseEther('0.5'), '0x', 'wallet_execute', 'ivanWallet1 pays ivanWallet2 (contract to contract)');
  for (let i = 0; i < 2; i++) sendEth(dayAt(between(10, 199)), 'ivan', 'heidi', '0.3');
  at(dayAt(50, 14), () => tx('judy', C.guard, 'revert', 'judy pokes the Guard with 1000 (reverts: Guard: value too large)', {
    data: enc('Guard', 'poke', [1000n]), gas: 60_000, revert: true,
  }));
  at(dayAt(140, 14), () => tx('judy', C.lights, 'revert', "judy tries to move bob's Lantern Light #1 (reverts: 721: wrong from)", {
    data: enc('Lights721', 'transferFrom', [A.judy, A.carol, 1n]), gas: 100_000, revert: true,
  }));
  for (const d of [60, 110]) at(dayAt(d), () => { const v = LNT(100); add('lnt', A.judy, -v); return tx('judy', C.lnt, 'erc20_burn', 'judy burns 100 LNT', { data: tokenCall('burn', [v]), gas: 60_000 }); });
  for (let i = 0; i < 3; i++) sendToken(dayAt(between(10, 199)), 'judy', 'usdc', 'carol', USDC(between(5, 60)));

  // --- peggy's tokens (she never sends) ---
  for (let i = 0; i < 3; i++) sendToken(dayAt(between(10, 199)), 'heidi', 'usdc', 'peggy', USDC(between(10, 100)));

  // --- curator: Far Lanterns, metadata off chain. Last in time and with fixed hours (no PRNG draws), so
  // every earlier transaction, block and draw is as it was before this collection existed. ---
  at(dayAt(200, 8), () => tx('deployer', A.curator, 'eth_send', 'deployer funds curator', { value: parseEther('10'), gas: 21_000 }));
  at(dayAt(200, 9), () => tx('curator', null, 'deploy', 'curator deploys Far Lanterns (ERC-721, metadata off chain at ipfs:// URIs)', {
    data: encodeDeployData({ abi: artifacts.Linked721.abi, bytecode: artifacts.Linked721.bytecode, args: ['Far Lanterns', 'FAR'] }),
    gas: 2_000_000,
  }));
  FAR_LANTERN_URIS.forEach((uri, i) => at(dayAt(200, 10) + i * 3600, () => tx('curator', C.farLanterns, 'nft_mint', `mint Far Lantern #${i + 1} to curator (${uri.replace(FAR_LANTERNS_CID, 'CID')})`, {
    data: enc('Linked721', 'mint', [A.curator, uri]), gas: 300_000,
  })));

  // --- holder: odd tokens and approvals (holdings.mjs), days 201 to 203 ---
  planHoldings({ at, tx, A, C, artifacts, dayAt });

  // --- order by time, materialise, group into blocks ---
  intents.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const blocks = [];
  let last = GENESIS_TIMESTAMP;
  for (const [t, , fn] of intents) {
    const spec = fn();
    if (!spec) continue;
    spec.nonce = nonces[spec.from]++;
    const cur = blocks[blocks.length - 1];
    // Transactions within 15 minutes of a block's start share it (up to 5), so some blocks hold several.
    if (cur && t - cur.timestamp <= 900 && cur.txs.length < 5) cur.txs.push(spec);
    else {
      const ts = Math.max(t, last + 1);
      blocks.push({ timestamp: ts, txs: [spec] });
      last = ts;
    }
  }
  return { blocks, contracts, counterfactual, nameOf };
}
