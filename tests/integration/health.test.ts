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
    expect(h.sources.evm_node).toMatchObject({ ok: true });
    expect(h.sources.ledger_local).toMatchObject({ ok: true });
  });

  it('names an unreachable source without failing the instance, and never shows a URL', async () => {
    const res = await fetch(`${down.url}/api/health`);
    expect(res.status).toBe(200);
    const h = await res.json();
    expect(h.sources.evm_node).toEqual({ ok: false, error: 'unreachable' });
    expect(h.sources.ledger_local.ok).toBe(false);
    expect(JSON.stringify(h)).not.toContain('http://');
  });
});
