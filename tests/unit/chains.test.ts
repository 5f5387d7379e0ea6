import { describe, expect, it } from 'vitest';
import { DEVNET2_CHAIN, DEVNET_CHAIN, allChains, chainById, chainOrCustom, findChain, hostedTables, publicChain, resolveChain, type ChainService } from '@/lib/chains';
import { LanternError } from '@/lib/errors';
import { readReference } from './interface/reference';

type Pairs = [string, string][];

// The interface's two tables, as written there (history says `linea 0xe705`; see the decision below).
const HISTORY_TABLE: Pairs = [
  ['eth', '0x1'], ['polygon', '0x89'], ['bsc', '0x38'], ['avalanche', '0xa86a'], ['fantom', '0xfa'], ['palm', '0x2a15c308d'],
  ['cronos', '0x19'], ['arbitrum', '0xa4b1'], ['gnosis', '0x64'], ['chiliz', '0x15b38'], ['base', '0x2105'], ['optimism', '0xa'],
];
const NFT_TABLE: Pairs = [
  ['eth', '0x1'], ['sepolia', '0xaa36a7'], ['holesky', '0x4268'], ['polygon', '0x89'], ['polygon amoy', '0x13882'], ['bsc', '0x38'],
  ['bsc testnet', '0x61'], ['avalanche', '0xa86a'], ['fantom', '0xfa'], ['palm', '0x2a15c308d'], ['cronos', '0x19'], ['arbitrum', '0xa4b1'],
  ['gnosis', '0x64'], ['gnosis testnet', '0x27d8'], ['chiliz', '0x15b38'], ['chiliz testnet', '0x15b32'], ['base', '0x2105'],
  ['base sepolia', '0x14a34'], ['optimism', '0xa'], ['optimism sepolia', '0xaa37dc'], ['linea', '0xe708'], ['linea sepolia', '0xe705'],
  ['moonbeam', '0x504'], ['moonriver', '0x505'], ['moonbase', '0x507'],
];

// The hosted API's tables, as a hosted-mode Lantern serves them: without the devnets, and with them (it fronts a Lantern reading them).
const eth = findChain('eth')!;
const off: ChainService = { chains: hostedTables({ devnets: false }), fallback: eth, pending: [] };
const on: ChainService = { chains: hostedTables({ devnets: true }), fallback: DEVNET_CHAIN, pending: [] };
const chainsFor = (op: 'history' | 'nfts', service: ChainService) => service.chains.filter((s) => s.operations.includes(op)).map((s) => s.chain);

function badChain(fn: () => unknown): LanternError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(LanternError);
    return e as LanternError;
  }
  throw new Error('expected a 400 on chain');
}

describe('chain registry', () => {
  it.each(HISTORY_TABLE)('history accepts %s and %s', (name, hex) => {
    expect(resolveChain(name, 'history', off).hex).toBe(hex);
    expect(resolveChain(hex, 'history', off).name).toBe(name);
  });

  it.each(NFT_TABLE)('nfts accepts %s and %s', (name, hex) => {
    const byName = resolveChain(name, 'nfts', off);
    expect(byName.hex).toBe(hex);
    expect(byName.id).toBe(Number.parseInt(hex.slice(2), 16));
    expect(resolveChain(hex, 'nfts', off)).toBe(byName);
    expect(resolveChain(hex.toUpperCase().replace('0X', '0x'), 'nfts', off)).toBe(byName);
  });

  it('agrees with every (name, hex) pair the reference sources list for the chains it has', () => {
    const ref = readReference<Record<string, { pairs?: Pairs }>>('chains-evm-history-and-nfts-by-source.json');
    const lists = Object.values(ref).filter((v) => typeof v === 'object' && v !== null && Array.isArray(v.pairs));
    expect(lists.length).toBeGreaterThanOrEqual(4);
    let checked = 0;
    for (const { pairs } of lists) {
      for (const [name, hex] of pairs!) {
        const chain = findChain(name);
        if (!chain) continue; // chains outside the interface's tables (goerli, flow, ronin, ...)
        expect(chain.hex, name).toBe(hex);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(60);
    // Every chain of the NFT table (the superset) appears in the 2024 SDK list, except optimism sepolia,
    // which only the interface names (its id is viem's and the OP Stack's: 11155420 = 0xaa37dc).
    const sdk = new Set(ref.python_sdk_2024_08.pairs!.map(([n, h]) => `${n} ${h}`));
    const missing = NFT_TABLE.filter(([n, h]) => !sdk.has(`${n} ${h}`)).map(([n]) => n);
    expect(missing).toEqual(['optimism sepolia']);
  });

  it('carries native currency, decimals and explorer', () => {
    expect(resolveChain('eth', 'nfts', off)).toMatchObject({ id: 1, nativeCurrency: { symbol: 'ETH', decimals: 18 }, explorerUrl: 'https://etherscan.io' });
    expect(resolveChain('polygon', 'nfts', off).nativeCurrency.symbol).toBe('POL');
    expect(resolveChain('bsc', 'nfts', off).nativeCurrency.symbol).toBe('BNB');
    for (const c of allChains) {
      expect(c.hex).toBe(`0x${c.id.toString(16)}`);
      expect(c.nativeCurrency.decimals).toBe(18);
      if (!c.devnet) expect(c.explorerUrl, c.name).toMatch(/^https?:\/\//);
    }
  });

  it('linea means 0xe708 everywhere; 0xe705 and linea sepolia mean Linea Sepolia, for both operations', () => {
    for (const op of ['history', 'nfts'] as const) {
      expect(resolveChain('linea', op, off).id).toBe(59144);
      expect(resolveChain('0xe708', op, off).name).toBe('linea');
      expect(resolveChain('0xe705', op, off).id).toBe(59141);
      expect(resolveChain('linea sepolia', op, off).hex).toBe('0xe705');
    }
  });

  it('accepts names in any case and with - or _ for spaces', () => {
    for (const v of ['polygon amoy', 'Polygon-Amoy', 'polygon_amoy', ' POLYGON  AMOY ']) expect(resolveChain(v, 'nfts', off).id).toBe(80002);
  });

  it('refuses an unknown chain with a 400 on chain listing the served chains', () => {
    const e = badChain(() => resolveChain('ethereum-classic', 'history', off));
    expect(e.status).toBe(400);
    expect(e.parameter).toBe('chain');
    for (const c of chainsFor('history', off)) expect(e.message).toContain(`${c.name} (${c.hex})`);
    expect(e.message).toMatch(/^chain: unknown chain "ethereum-classic"; this Lantern serves: eth \(0x1\), polygon \(0x89\), /);
    expect(e.message).not.toContain('devnet');
    expect(e.message).not.toContain('sepolia (0xaa36a7)');
    expect(badChain(() => resolveChain('1', 'nfts', off)).parameter).toBe('chain'); // decimal ids are not chain values
    expect(badChain(() => resolveChain('0x2', 'nfts', off)).parameter).toBe('chain');
  });

  it('refuses a chain the operation does not offer', () => {
    const e = badChain(() => resolveChain('sepolia', 'history', off));
    expect(e.message).toMatch(/not available for wallet history/);
    expect(resolveChain('sepolia', 'nfts', off).id).toBe(11155111);
  });

  it('offers the devnets only when served, and defaults to the fallback', () => {
    expect(resolveChain(undefined, 'history', off).name).toBe('eth');
    expect(resolveChain(undefined, 'nfts', on)).toMatchObject({ name: 'devnet', id: 31337, hex: '0x7a69', devnet: true, explorerUrl: null });
    expect(resolveChain('devnet', 'history', on).id).toBe(31337);
    expect(resolveChain('0x7a69', 'nfts', on).name).toBe('devnet');
    expect(badChain(() => resolveChain('devnet', 'history', off)).parameter).toBe('chain');
    expect(badChain(() => resolveChain('0x7a69', 'nfts', off)).parameter).toBe('chain');
    expect(badChain(() => resolveChain('nope', 'nfts', on)).message).toContain('devnet (0x7a69)');
    expect(resolveChain('devnet2', 'history', on)).toBe(DEVNET2_CHAIN);
    expect(resolveChain('0x7a6a', 'nfts', on)).toMatchObject({ name: 'devnet2', id: 31338, label: 'Local devnet 2', devnet: true });
  });

  describe('on a server with nodes', () => {
    const polygon = findChain('polygon')!;
    const sepolia = findChain('sepolia')!;
    const nodes = (...chains: typeof allChains): ChainService['chains'] => chains.map((chain) => ({ chain, operations: ['history', 'nfts'], source: 'node' }));
    const twoDevnets: ChainService = { chains: nodes(DEVNET_CHAIN, DEVNET2_CHAIN), fallback: DEVNET_CHAIN, pending: [] };

    it('serves exactly the chains of its nodes, for every operation (a node of an NFT-only chain answers history too)', () => {
      expect(resolveChain(undefined, 'history', twoDevnets)).toBe(DEVNET_CHAIN);
      expect(resolveChain('DEVNET2', 'nfts', twoDevnets)).toBe(DEVNET2_CHAIN);
      expect(resolveChain('sepolia', 'history', { chains: nodes(sepolia), fallback: sepolia, pending: [] })).toBe(sepolia);
    });

    it('refuses a known chain no node serves, listing the served ones', () => {
      const e = badChain(() => resolveChain('polygon', 'history', twoDevnets));
      expect([e.status, e.parameter]).toEqual([400, 'chain']);
      expect(e.message).toBe('chain: polygon (0x89) is not served by this Lantern (no node for it); this Lantern serves: devnet (0x7a69), devnet2 (0x7a6a)');
      const mixed: ChainService = { chains: [...nodes(polygon), ...hostedTables({ devnets: false }).filter((s) => s.chain !== polygon)], fallback: polygon, pending: [] };
      expect(resolveChain('0x89', 'history', mixed)).toBe(polygon);
      expect(resolveChain('bsc', 'history', mixed).id).toBe(56);
      expect(badChain(() => resolveChain('devnet', 'nfts', mixed)).message).toMatch(/^chain: devnet \(0x7a69\) is not served by this Lantern \(no node for it, and not a chain of the hosted API\); this Lantern serves: polygon \(0x89\), eth \(0x1\)/);
    });

    it('a default chain not served is a 400 saying so', () => {
      const e = badChain(() => resolveChain('', 'history', { ...twoDevnets, fallback: polygon }));
      expect(e.message).toBe('chain: no chain named, and the default chain polygon (0x89) is not served for wallet history; this Lantern serves: devnet (0x7a69), devnet2 (0x7a6a)');
    });

    it('a node that has not said its chain yet makes an unknown request a 503, not a 400', () => {
      const waiting: ChainService = { chains: nodes(DEVNET_CHAIN), fallback: undefined, pending: ['EVM_RPC_URL (rpc.example:443)'] };
      for (const v of ['polygon', undefined]) {
        const e = badChain(() => resolveChain(v, 'history', waiting));
        expect([e.status, e.code, e.parameter]).toEqual([503, 'upstream_unavailable', 'chain']);
        expect(e.message).toContain('EVM_RPC_URL (rpc.example:443)');
      }
      expect(resolveChain('devnet', 'history', waiting)).toBe(DEVNET_CHAIN);
    });

    it('a chain the registry does not know is served by its hex id, as a chain known only by its id', () => {
      const own = chainOrCustom(1337);
      expect(own).toMatchObject({ name: '0x539', hex: '0x539', label: 'Chain 1337', nativeCurrency: { symbol: 'ETH', decimals: 18 }, explorerUrl: null });
      expect(chainOrCustom(1337)).toBe(own);
      expect(resolveChain('0x539', 'history', { chains: nodes(own), fallback: own, pending: [] })).toBe(own);
      expect(badChain(() => resolveChain('0x539', 'history', twoDevnets)).message).toMatch(/^chain: 0x539 \(0x539\) is not served/);
    });
  });

  it('looks chains up by id', () => {
    expect(chainById(59144)?.name).toBe('linea');
    expect(chainById(31337)?.devnet).toBe(true);
    expect(chainById(424242)).toBeUndefined();
    expect(new Set(allChains.map((c) => c.id)).size).toBe(allChains.length);
  });

  it('gives plain JSON-safe data for pages', () => {
    const c = publicChain(resolveChain('optimism', 'nfts', off));
    expect(c).not.toHaveProperty('viem');
    expect(JSON.parse(JSON.stringify(c))).toEqual(c);
  });
});
