import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress, type Address } from 'viem';
import { startEnsChain, tellEnsStory, type EnsChain, type EnsStory } from '../support/ens-chain';
import { startLantern, type LanternInstance } from '../support/lantern';

// ENS search and ENS counterparty names, against a local ENS (tests/support/ens-chain.ts: ENS's own
// registry, public resolver and reverse registrar on an anvil that is chain 1). The same node is the
// EVM node whose history is shown (Ethereum, where ENS lives), so the counterparties are accounts with
// (or without) names there.

let ens: EnsChain;
let lantern: LanternInstance;
let alice: Address, bob: Address, mallory: Address, carol: Address;
let hashes: EnsStory['hashes'];

beforeAll(async () => {
  ens = await startEnsChain();
  ({ alice, bob, mallory, carol, hashes } = await tellEnsStory(ens));
  lantern = await startLantern({ EVM_RPC_URL: ens.url, ENS_RPC_URL: ens.url });
}, 120_000);

afterAll(async () => {
  await lantern?.stop();
  await ens?.stop();
});

async function search(q: string) {
  const res = await fetch(`${lantern.url}/search?q=${encodeURIComponent(q)}`, { redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), html: res.status === 200 ? await res.text() : '' };
}

/** The accessible name of the counterparty link on the history row of `hash`. */
function counterpartyName(html: string, hash: string): string | undefined {
  const row = new RegExp(`<li[^>]*data-tx-hash="${hash}"[\\s\\S]*?</li>`, 'i').exec(html)?.[0];
  const cell = row && /data-role="counterparty"[\s\S]*?<a [^>]*aria-label="([^"]+)"/.exec(row);
  return cell?.[1];
}

describe('ENS (ENS_RPC_URL on a local ENS)', () => {
  it('search: a name opens the wallet it resolves to', async () => {
    const r = await search('bob.eth');
    expect(r.status).toBe(307);
    expect(r.location).toBe(`/wallet/${getAddress(bob)}`);
    const upper = await search('Carol.ETH');
    expect([upper.status, upper.location]).toEqual([307, `/wallet/${getAddress(carol)}`]);
  });

  it('search: a name nobody registered says it does not resolve', async () => {
    const r = await search('nobody.eth');
    expect(r.status).toBe(200);
    expect(r.html).toContain('nobody.eth does not resolve to an address.');
  });

  it('history rows name a counterparty by its primary name, only when that name resolves back to it', async () => {
    await expect
      .poll(async () => counterpartyName(await (await fetch(`${lantern.url}/wallet/${alice}`)).text(), hashes.bob!), { timeout: 20_000, interval: 250 })
      .toBe(`bob.eth, ${bob.toLowerCase()}`);
    const html = await (await fetch(`${lantern.url}/wallet/${alice}`)).text();
    expect(counterpartyName(html, hashes.mallory!)).toBe(mallory.toLowerCase());
    expect(counterpartyName(html, hashes.carol!)).toBe(carol.toLowerCase());
  });
});
