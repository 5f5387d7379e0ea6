import { createPublicClient, http, parseAbi } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadManifest } from '../../devnet/evm/index.mjs';
import { CHAIN_ID_2, startSecondDevnet, type SecondManifest } from '../../devnet/evm/second.mjs';
import { freePort } from '../support/ports';

// The second devnet (chain 31338, `devnet2`): seeded on every start, so two starts must be the same chain,
// and its story must be what SCENARIO.md tells (alice and bob on both chains, nadia only on this one).
let a: Awaited<ReturnType<typeof startSecondDevnet>>;
let b: Awaited<ReturnType<typeof startSecondDevnet>>;
let m: SecondManifest;

beforeAll(async () => {
  [a, b] = await Promise.all([startSecondDevnet({ port: await freePort() }), startSecondDevnet({ port: await freePort() })]);
  m = a.manifest;
});
afterAll(() => Promise.all([a?.stop(), b?.stop()]));

const client = () => createPublicClient({ transport: http(a.url) });

describe('the second devnet', () => {
  it('is chain 31338, the same chain on every start (transactions and block hashes)', async () => {
    expect(CHAIN_ID_2).toBe(31338);
    expect(await client().getChainId()).toBe(31338);
    expect(b.manifest.transactions.map((t) => t.hash)).toEqual(m.transactions.map((t) => t.hash));
    const last = BigInt(m.stats.lastBlock);
    const [ha, hb] = await Promise.all([client().getBlock({ blockNumber: last }), createPublicClient({ transport: http(b.url) }).getBlock({ blockNumber: last })]);
    expect(ha.hash).toBe(hb.hash);
    // Blocks mined later are dated after the seeded ones (the clock is the wall clock).
    await client().request({ method: 'evm_mine' as never });
    expect((await client().getBlock()).timestamp).toBeGreaterThan(BigInt(m.stats.lastTimestamp));
  });

  it('tells the story: alice and bob act on both chains, nadia only on this one', async () => {
    const first = loadManifest();
    const touching = (addr: string) => m.transactions.filter((t) => t.parties.includes(addr.toLowerCase() as `0x${string}`)).length;
    expect(touching(m.accounts.nadia.address)).toBeGreaterThan(0);
    expect(first.transactions.some((t) => t.parties.includes(m.accounts.nadia.address))).toBe(false);
    for (const name of ['alice', 'bob'] as const) {
      expect(m.accounts[name].address).toBe(first.accounts[name].address);
      expect(touching(m.accounts[name].address), name).toBeGreaterThan(0);
    }
    // alice funds herself (a transaction from and to her own address) and holds D2D and a Second Light.
    expect(m.transactions.some((t) => t.from === m.accounts.alice.address && t.to === m.accounts.alice.address)).toBe(true);
    const erc20 = parseAbi(['function balanceOf(address) view returns (uint256)']);
    const erc721 = parseAbi(['function ownerOf(uint256) view returns (address)']);
    const d2d = (who: `0x${string}`) => client().readContract({ address: m.contracts.d2d.address, abi: erc20, functionName: 'balanceOf', args: [who] });
    expect([await d2d(m.accounts.alice.address), await d2d(m.accounts.nadia.address)]).toEqual([380_000_000n, 120_000_000n]);
    const owner = (id: bigint) => client().readContract({ address: m.contracts.lights2.address, abi: erc721, functionName: 'ownerOf', args: [id] });
    expect([(await owner(1n)).toLowerCase(), (await owner(2n)).toLowerCase()]).toEqual([m.accounts.alice.address, m.accounts.bob.address]);
  });
});
