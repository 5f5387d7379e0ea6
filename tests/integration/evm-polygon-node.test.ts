import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyPageSchema, type WalletTransaction } from '../../lib/interface/history';
import { oracle, startForeignChain, ZERO, type ForeignChain, type OracleTx } from '../support/foreign-chain';
import { startLantern, type LanternInstance } from '../support/lantern';

// Node mode on a network other than the devnet: an anvil that is chain 137 (Polygon), at an address
// that is not Lantern's devnet, with random transactions Lantern did not write. Each wallet's history
// must be what the node says (receipts and callTracer traces, tests/support/foreign-chain.ts `oracle`),
// whether the request names polygon or names no chain (the node's own, EVM_RPC_URL's chain being read from
// the node); the devnet and any other chain are a 400 naming `chain` listing the one served chain.

let chain: ForeignChain;
let facts: OracleTx[];
let lantern: LanternInstance;

beforeAll(async () => {
  chain = await startForeignChain(29, { chainId: 137, host: '127.0.0.2' });
  await chain.round(90);
  facts = await oracle(chain.rpc);
  lantern = await startLantern({ EVM_RPC_URL: chain.url });
}, 300_000);

afterAll(async () => {
  await lantern?.stop();
  await chain?.stop();
});

async function get(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${lantern.url}${path}`);
  return { status: res.status, body: await res.json() };
}

async function allHistory(wallet: string, chainParam: string): Promise<WalletTransaction[]> {
  const out: WalletTransaction[] = [];
  let cursor = '';
  for (let n = 0; n < 100; n++) {
    const r = await get(`/api/v2.2/wallets/${wallet}/history?order=ASC&limit=20${chainParam}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const page = historyPageSchema.parse(r.body);
    out.push(...page.result);
    if (!page.cursor) break;
    cursor = page.cursor;
  }
  return out;
}

const transfersOf = (t: WalletTransaction) => t.native_transfers.map((n) => `${n.from_address}>${n.to_address}:${n.value}`).sort();

describe('node mode on Polygon (chain 137), not the devnet', () => {
  it('the node is chain 137, with transactions of every kind', async () => {
    expect(await chain.rpc.call('eth_chainId')).toBe('0x89');
    expect(facts.length).toBeGreaterThanOrEqual(90);
    expect(facts.some((t) => t.transfers.length > 1)).toBe(true);
  });

  it('every wallet’s history, chain=polygon and with no chain named, is exactly the node’s transactions and native transfers', async () => {
    const byHash = new Map(facts.map((t) => [t.hash, t]));
    const wallets = [...new Set(facts.flatMap((t) => [...t.parties]))].filter((a) => a !== ZERO).sort();
    expect(wallets.length).toBeGreaterThanOrEqual(8);
    for (const wallet of wallets) {
      const want = facts.filter((t) => t.parties.has(wallet)).sort((a, b) => a.block - b.block || a.index - b.index).map((t) => t.hash);
      for (const param of ['&chain=polygon', '&chain=0x89', '']) {
        const got = await allHistory(wallet, param);
        expect(got.map((t) => t.hash), `history of ${wallet} (${param || 'no chain'})`).toEqual(want);
        for (const t of got) expect(transfersOf(t), `native transfers of ${t.hash}`).toEqual(byHash.get(t.hash)!.transfers);
      }
    }
  }, 600_000);

  it('the wallet page on polygon: the node’s newest transactions, the balance in POL, the wallet’s transaction count', async () => {
    const wallet = chain.wallets[0]!.toLowerCase();
    const res = await fetch(`${lantern.url}/wallet/${wallet}?chain=polygon`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const want = facts.filter((t) => t.parties.has(wallet)).sort((a, b) => b.block - a.block || b.index - a.index).map((t) => t.hash);
    const shown = [...html.matchAll(/data-tx-hash="(0x[0-9a-f]{64})"/g)].map((m) => m[1]);
    expect(shown).toEqual(want.slice(0, 25)); // the first page, newest first
    const balance = BigInt((await chain.rpc.call('eth_getBalance', [wallet, 'latest'])) as string).toString();
    expect(html).toContain(`data-wei="${balance}"`);
    expect(/data-testid="balance"[^>]*>([\d,.]+)<!-- --> <!-- -->(\w+)</.exec(html)?.[2]).toBe('POL');
    // The count is the wallet's transactions as its history lists them: every one it is a party to,
    // inside a call or a token transfer too (node mode's activity index).
    expect(/data-testid="tx-count"[^>]*>([^<]*)</.exec(html)?.[1]).toBe(want.length.toLocaleString('en-US'));
  });

  it('a request for the devnet chain is a 400 naming chain; so is one for a chain the node does not serve', async () => {
    const wallet = chain.wallets[0];
    for (const c of ['devnet', '0x7a69']) {
      const r = await get(`/api/v2.2/wallets/${wallet}/history?chain=${c}`);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body).toMatchObject({ code: 'invalid_parameter', parameter: 'chain' });
      expect(r.body.message).toBe('chain: devnet (0x7a69) is not served by this Lantern (no node for it); this Lantern serves: polygon (0x89)');
    }
    const eth = await get(`/api/v2.2/wallets/${wallet}/history?chain=eth`);
    expect(eth.status, JSON.stringify(eth.body)).toBe(400);
    expect(eth.body).toMatchObject({
      code: 'invalid_parameter',
      parameter: 'chain',
      message: 'chain: eth (0x1) is not served by this Lantern (no node for it); this Lantern serves: polygon (0x89)',
    });
  });
});
