import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startLantern, type LanternInstance } from '../support/lantern';

let up: LanternInstance;
let down: LanternInstance;

beforeAll(async () => {
  [up, down] = await Promise.all([
    startLantern({ DEVNET_EVM_PORT: String(inject('evmPort')), DEVNET_LEDGER_PORT: String(inject('ledgerPort')) }),
    startLantern({ EVM_RPC_URL: 'http://127.0.0.1:9', LEDGER_API_URL_LOCAL: 'http://127.0.0.1:9/v1' }),
  ]);
});
afterAll(() => Promise.all([up?.stop(), down?.stop()]));

describe('GET /api/health', () => {
  it('reports the database and each source as reachable', async () => {
    const res = await fetch(`${up.url}/api/health`);
    expect(res.status).toBe(200);
    const h = await res.json();
    expect(h).toMatchObject({ ok: true, mode: 'node', database: { ok: true, kind: 'pglite' } });
    // Each EVM node by its chain: the two devnets, with the chain's id and the node's host.
    expect(h.sources.evm_nodes.devnet).toMatchObject({ ok: true, chain_id: '0x7a69', host: `127.0.0.1:${inject('evmPort')}` });
    expect(h.sources.evm_nodes.devnet2).toMatchObject({ ok: true, chain_id: '0x7a6a', host: `127.0.0.1:${inject('evm2Port')}` });
    expect(h.sources.ledger_local).toMatchObject({ ok: true });
    expect(h.chains).toEqual([
      { chain: 'devnet', chain_id: '0x7a69', source: 'node', operations: ['history', 'nfts'] },
      { chain: 'devnet2', chain_id: '0x7a6a', source: 'node', operations: ['history', 'nfts'] },
    ]);
    expect(Object.keys(h.evm_history)).toEqual(['devnet', 'devnet2']);
    // A breaker per node, named by chain and host.
    const sources = (h.breakers as { source: string }[]).map((b) => b.source);
    expect(sources).toEqual(expect.arrayContaining([`evm-node:devnet:127.0.0.1:${inject('evmPort')}`, `evm-node:devnet2:127.0.0.1:${inject('evm2Port')}`]));
  });

  it('names an unreachable source without failing the instance, and never shows a URL', async () => {
    const res = await fetch(`${down.url}/api/health`);
    expect(res.status).toBe(200);
    const h = await res.json();
    // EVM_RPC_URL's node never said its chain: named by the variable, its host only.
    expect(h.sources.evm_nodes).toEqual({ EVM_RPC_URL: { ok: false, error: 'has not said which chain it serves yet (EVM_RPC_URL)', chain_id: null, host: '127.0.0.1:9' } });
    expect(h.chains).toEqual([]);
    expect(h.sources.ledger_local.ok).toBe(false);
    expect(JSON.stringify(h)).not.toContain('http://');
  });
});

describe('GET /api/health?ready', () => {
  it('is ready while the database answers, whatever the sources say (they are named by /api/health)', async () => {
    for (const on of [up, down]) {
      const res = await fetch(`${on.url}/api/health?ready`);
      expect([res.status, res.headers.get('cache-control'), await res.json()]).toEqual([200, 'no-store', { ready: true }]);
    }
  });
});
