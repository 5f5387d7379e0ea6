// A synthetic wallet with thousands of transactions, for the history benchmark (a page must not
// cost a full-history scan). It uses dev accounts no scenario account uses (index 15 for the wallet,
// 16-19 as counterparties), so the scenario wallets' histories stay exactly as the manifest says.
import { encodeDeployData, encodeFunctionData, getContractAddress, parseEther, toHex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { rpcClient } from './rpc.mjs';
import { CHAIN_ID, MAX_FEE_PER_GAS, MAX_PRIORITY_FEE_PER_GAS, MNEMONIC, loadArtifacts } from './scenario.mjs';

export const SYNTHETIC_INDEX = 15;
const COUNTERPARTY_INDEXES = [16, 17, 18, 19];

/**
 * Adds `count` transactions touching one wallet to a running devnet: a deployment of its own
 * ERC-20 ("Synthetic Token", SYN), then a mix of ETH sends, SYN transfers and ETH received from
 * counterparties, `perBlock` per block, blocks one hour apart after the current head.
 * @param {{ rpcUrl: string, count?: number, perBlock?: number, log?: (m: string) => void }} o
 * @returns {Promise<{ address: string, token: string, count: number, firstBlock: number, lastBlock: number, ms: number }>}
 */
export async function seedSyntheticWallet({ rpcUrl, count = 5000, perBlock = 10, log = () => {} }) {
  const t0 = Date.now();
  const rpc = rpcClient(rpcUrl);
  const artifacts = loadArtifacts();
  const wallet = mnemonicToAccount(MNEMONIC, { addressIndex: SYNTHETIC_INDEX });
  const others = COUNTERPARTY_INDEXES.map((i) => mnemonicToAccount(MNEMONIC, { addressIndex: i }));
  const all = [wallet, ...others];
  const counts = await rpc.batch(all.map((a) => ['eth_getTransactionCount', [a.address, 'latest']]));
  const nonce = new Map(all.map((a, i) => [a.address, Number(counts[i])]));
  const head = await rpc.call('eth_getBlockByNumber', ['latest', false]);
  let ts = Number(head.timestamp);

  const token = getContractAddress({ from: wallet.address, nonce: BigInt(nonce.get(wallet.address)) }).toLowerCase();
  const specs = [];
  specs.push({ from: wallet, data: encodeDeployData({ abi: artifacts.Token.abi, bytecode: artifacts.Token.bytecode, args: ['Synthetic Token', 'SYN', 18] }), gas: 4_000_000n });
  if (count > 1) specs.push({ from: wallet, to: token, data: encodeFunctionData({ abi: artifacts.Token.abi, functionName: 'mint', args: [wallet.address, parseEther('1000000000')] }), gas: 90_000n });
  for (let i = specs.length; i < count; i++) {
    const cp = others[i % others.length];
    if (i % 5 === 0) specs.push({ from: cp, to: wallet.address, value: parseEther('0.001'), gas: 21_000n });
    else if (i % 2 === 0) specs.push({ from: wallet, to: cp.address, value: BigInt(1e12 + i), gas: 21_000n });
    else specs.push({ from: wallet, to: token, data: encodeFunctionData({ abi: artifacts.Token.abi, functionName: 'transfer', args: [cp.address, BigInt(1e18) + BigInt(i)] }), gas: 60_000n });
  }

  let firstBlock = null;
  let lastBlock = null;
  await rpc.call('evm_setAutomine', [false]);
  try {
    for (let i = 0; i < specs.length; i += perBlock) {
      const chunk = specs.slice(i, i + perBlock);
      const raws = await Promise.all(chunk.map((s) => {
        const n = nonce.get(s.from.address);
        nonce.set(s.from.address, n + 1);
        return s.from.signTransaction({
          chainId: CHAIN_ID, type: 'eip1559', nonce: n, to: s.to, value: s.value ?? 0n, data: s.data,
          gas: s.gas, maxFeePerGas: MAX_FEE_PER_GAS, maxPriorityFeePerGas: MAX_PRIORITY_FEE_PER_GAS,
        });
      }));
      await rpc.batch(raws.map((r) => ['eth_sendRawTransaction', [r]]));
      ts += 3600;
      await rpc.call('evm_setNextBlockTimestamp', [ts]);
      await rpc.call('evm_mine', []);
      const n = Number(await rpc.call('eth_blockNumber'));
      firstBlock ??= n;
      lastBlock = n;
    }
  } finally {
    await rpc.call('evm_setAutomine', [true]);
  }
  // Every transaction must have been mined (none dropped or left pending) and the last one succeeded.
  const blocks = await rpc.batch(
    Array.from({ length: lastBlock - firstBlock + 1 }, (_, i) => ['eth_getBlockByNumber', [toHex(firstBlock + i), false]]),
  );
  const mined = blocks.flatMap((b) => b.transactions);
  if (mined.length !== specs.length) throw new Error(`synthetic: ${mined.length} of ${specs.length} transactions mined`);
  const lastReceipt = await rpc.call('eth_getTransactionReceipt', [mined[mined.length - 1]]);
  if (Number(lastReceipt.status) !== 1) throw new Error('synthetic: the last transaction failed');
  const ms = Date.now() - t0;
  log(`synthetic wallet ${wallet.address.toLowerCase()}: ${specs.length} transactions in blocks ${firstBlock}-${lastBlock}, ${ms} ms`);
  return { address: wallet.address.toLowerCase(), token, count: specs.length, firstBlock, lastBlock, ms };
}
