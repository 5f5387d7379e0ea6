import { createPublicClient, erc20Abi, http, keccak256, pad, toHex, type Address, type Hex, type PublicClient } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadManifest } from '../../devnet/evm/index.mjs';
import { secondSigners } from '../../devnet/evm/second.mjs';
import { tokenBalancesPageSchema, type TokenBalance } from '../../lib/interface/tokens';
import { startLantern, type LanternInstance } from '../support/lantern';

/**
 * Holdings against the node, on every devnet chain one server reads (devnet 31337 and devnet2 31338, its
 * default nodes). For every scenario wallet of each chain, `/api/v2.2/wallets/{a}/tokens` equals what the
 * node says at the answer's block_number, read here with viem: balanceOf of every ERC-20 that ever
 * emitted a Transfer naming the wallet (found with eth_getLogs; zero balances left out, reverting ones
 * listed as unreadable), and the native balance with eth_getBalance.
 */

const TRANSFER = keccak256(toHex('Transfer(address,address,uint256)'));
const CHAINS = ['devnet', 'devnet2'] as const;
type ChainName = (typeof CHAINS)[number];

let lantern: LanternInstance;
let clients: Record<ChainName, PublicClient>;

const topicOf = (a: string) => pad(a as Hex, { size: 32 }).toLowerCase() as Hex;
const addrOf = (t: Hex) => `0x${t.slice(26)}`.toLowerCase();

interface Log {
  address: string;
  topics: Hex[];
}

const logs = (client: PublicClient, topics: (Hex | null)[], to: bigint) =>
  client.request({ method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: toHex(to), topics }] }) as Promise<Log[]>;

/** The chain's scenario wallets: its named accounts and contracts, and every party of an ERC-20 Transfer on it. */
async function walletsOf(chain: ChainName): Promise<string[]> {
  const named =
    chain === 'devnet'
      ? (() => {
          const m = loadManifest();
          return [...Object.values(m.accounts).map((a) => a.address), ...Object.values(m.contracts).map((c) => c.address)];
        })()
      : Object.values(secondSigners()).map((a) => a.address);
  const client = clients[chain];
  const all = (await logs(client, [TRANSFER], await client.getBlockNumber())).filter((l) => l.topics.length === 3);
  const parties = all.flatMap((l) => [addrOf(l.topics[1]!), addrOf(l.topics[2]!)]).filter((a) => a !== `0x${'0'.repeat(40)}`);
  return [...new Set([...named.map((a) => a.toLowerCase()), ...parties])].sort();
}

/** Every page of the wallet's tokens on the chain: one block for all of them. */
async function tokensOf(chain: ChainName, wallet: string) {
  const pages = [];
  let cursor = '';
  for (let i = 0; i < 50; i++) {
    const res = await fetch(`${lantern.url}/api/v2.2/wallets/${wallet}/tokens?chain=${chain}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    const page = tokenBalancesPageSchema.parse(body);
    pages.push(page);
    if (!page.cursor) break;
    cursor = page.cursor;
  }
  for (const p of pages) expect(p.block_number).toBe(pages[0]!.block_number);
  return { block: BigInt(pages[0]!.block_number!), result: pages.flatMap((p) => p.result) as TokenBalance[], unreadable: pages[0]!.unreadable ?? [] };
}

beforeAll(async () => {
  clients = {
    devnet: createPublicClient({ transport: http(inject('evmRpcUrl')) }),
    devnet2: createPublicClient({ transport: http(inject('evm2RpcUrl')) }),
  };
  // Names no node: its default nodes are the run's two devnets (global-setup's DEVNET_EVM_PORT, DEVNET_EVM2_PORT).
  lantern = await startLantern({});
}, 120_000);

afterAll(async () => {
  await lantern?.stop();
});

describe.each(CHAINS)('%s: every scenario wallet', (chain) => {
  it('tokens equal balanceOf at the answer’s block for every ERC-20 whose Transfer logs name the wallet; native equals eth_getBalance', async () => {
    const client = clients[chain];
    const wallets = await walletsOf(chain);
    expect(wallets.length).toBeGreaterThan(3);
    let held = 0;
    for (const wallet of wallets) {
      const page = await tokensOf(chain, wallet);
      const w = topicOf(wallet);
      const found = [...(await logs(client, [TRANSFER, w], page.block)), ...(await logs(client, [TRANSFER, null, w], page.block))].filter((l) => l.topics.length === 3);
      const want = new Map<string, string>();
      const reverted: string[] = [];
      for (const token of new Set(found.map((l) => l.address.toLowerCase()))) {
        try {
          const b = await client.readContract({ address: token as Address, abi: erc20Abi, functionName: 'balanceOf', args: [wallet as Address], blockNumber: page.block });
          if (b > 0n) want.set(token, b.toString());
        } catch {
          reverted.push(token);
        }
      }
      const [native, ...tokens] = page.result;
      expect(native!.native_token, `${chain} ${wallet}`).toBe(true);
      expect(native!.balance, `${chain} ${wallet} native`).toBe((await client.getBalance({ address: wallet as Address, blockNumber: page.block })).toString());
      expect(new Map(tokens.map((t) => [t.token_address.toLowerCase(), t.balance])), `${chain} ${wallet} at ${page.block}`).toEqual(want);
      expect(page.unreadable.map((u) => u.token_address.toLowerCase()).sort(), `${chain} ${wallet} unreadable`).toEqual(reverted.sort());
      held += want.size;
    }
    // The chain's scenario holds tokens: an empty oracle would prove nothing.
    expect(held).toBeGreaterThan(0);
  }, 300_000);
});
