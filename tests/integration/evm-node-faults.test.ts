import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadManifest } from '../../devnet/evm/index.mjs';
import { startLantern, type LanternInstance } from '../support/lantern';
import { startRpcProxy, type RpcProxy } from '../support/rpc-proxy';

/**
 * An EVM node that drops connections in the middle of a page: the API answers a clear 5xx JSON error
 * (never a hang or a crash), nothing half-fetched is cached as an answer, and once the node behaves
 * again the same page is complete and correct.
 */
let proxy: RpcProxy;
let lantern: LanternInstance;
const m = loadManifest();
const carol = m.accounts.carol.checksumAddress;
const PROBE_MS = 1000;

beforeAll(async () => {
  proxy = await startRpcProxy(inject('evmRpcUrl'));
  lantern = await startLantern({ EVM_RPC_URL: proxy.url, DEVNET_LEDGER_PORT: String(inject('ledgerPort')), UPSTREAM_PROBE_INTERVAL_MS: String(PROBE_MS) });
});
afterAll(async () => {
  await lantern?.stop();
  await proxy?.stop();
});

describe('an EVM node that drops connections mid-page', () => {
  it('turns into a JSON error, then a correct page once the node recovers', async () => {
    const url = `${lantern.url}/api/v2.2/wallets/${carol}/history?chain=devnet&limit=20`;
    // The index is built, then the node starts dropping the calls that hydrate a page's transactions.
    proxy.dropCalls = /eth_getTransactionReceipt|eth_getTransactionByHash|debug_traceTransaction|eth_getBlockByNumber/;
    const started = Date.now();
    const res = await fetch(url);
    const body = await res.json();
    // 503 upstream_unavailable either way: the call that met the drop says the node could not be reached,
    // a call after the drops opened the breaker says the node is not answering (which one the page meets
    // first depends on how its calls interleave).
    expect([res.status, body.code]).toEqual([503, 'upstream_unavailable']);
    expect(Object.keys(body).sort()).toEqual(['code', 'message']);
    // Named by host only: the node's URL (its path may carry a key) never appears.
    const host = new URL(proxy.url).host.replaceAll('.', '\\.');
    expect(body.message).toMatch(
      new RegExp(
        // (any method: calls travel in batches, and a dropped connection fails every call of its batch)
        `^(The Local devnet node could not be reached \\(\\w+\\)\\.` +
          `|The Local devnet node \\(${host}\\) is not answering; Lantern will try it again in \\d+ s\\.)$`,
      ),
    );
    console.info(`a node dropping connections answered ${res.status} in ${Date.now() - started} ms`);

    expect((await fetch(`${lantern.url}/api/health`)).status).toBe(200);

    // The drops opened the node's breaker: within a probe interval (and one probe) the page is whole again.
    proxy.dropCalls = null;
    const back = Date.now();
    let ok = await fetch(url);
    while (ok.status !== 200 && Date.now() - back < PROBE_MS + 5000) {
      expect([ok.status, (await ok.json()).code]).toEqual([503, 'upstream_unavailable']);
      await new Promise((r) => setTimeout(r, 200));
      ok = await fetch(url);
    }
    expect(ok.status).toBe(200);
    const page = await ok.json();
    const expected = m.transactions.filter((t) => t.parties.includes(m.accounts.carol.address)).length;
    expect(page.result.length).toBe(Math.min(20, expected));
    expect(lantern.output()).not.toMatch(/unhandledRejection|uncaughtException/i);
  });
});
