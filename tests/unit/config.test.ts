import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '@/lib/config';

const base = { NODE_ENV: 'test', DATA_DIR: '/tmp/lantern-unit-config' } as const;

describe('configuration', () => {
  it('defaults to node mode on the embedded devnets', () => {
    const c = parseConfig(base);
    expect(c.mode).toBe('node');
    // Both local devnets, each named for its chain (checked against the node at start-up).
    expect(c.evmNodes).toEqual([
      { url: 'http://127.0.0.1:8545', chainId: 31337, variable: 'DEVNET_EVM_PORT (the local devnet)', wsUrl: 'ws://127.0.0.1:8545' },
      { url: 'http://127.0.0.1:8546', chainId: 31338, variable: 'DEVNET_EVM2_PORT (the second local devnet)', wsUrl: 'ws://127.0.0.1:8546' },
    ]);
    expect(c.defaultChainId).toBeNull();
    expect(c.ledgerUrls.local).toBe('http://127.0.0.1:8080/v1');
    expect(c.ledgerUrls.mainnet).toBe('https://api.mainnet.aptoslabs.com/v1');
    expect(c.apiKeys).toEqual([]);
    expect(c.rateLimitPerMinute).toBe(300);
  });

  it("takes npm run dev's devnet driver switch in development on its own nodes only, never in production or hosted mode", () => {
    const url = `http://127.0.0.1:40123/${'ab'.repeat(16)}`;
    expect(parseConfig({ ...base, NODE_ENV: 'development', LANTERN_DEVNET_DRIVER: url }).devnetDriver).toBe(url);
    expect(parseConfig({ ...base, NODE_ENV: 'development' }).devnetDriver).toBeNull();
    expect(parseConfig({ ...base, NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32), PUBLIC_URL: 'https://lantern.example', LANTERN_DEVNET_DRIVER: url }).devnetDriver).toBeNull();
    expect(parseConfig({ ...base, NODE_ENV: 'development', DATA_API_KEY: 'k'.repeat(40), LANTERN_DEVNET_DRIVER: url }).devnetDriver).toBeNull();
    expect(() => parseConfig({ ...base, NODE_ENV: 'development', LANTERN_DEVNET_DRIVER: 'http://evil.example/x' })).toThrow(/LANTERN_DEVNET_DRIVER/);
  });

  it('keeps an unfinal tail of 12 blocks, on the devnet too, and shares the head for a second, unless told', () => {
    expect([parseConfig(base).evmReorgDepth, parseConfig(base).evmHeadTtlMs]).toEqual([12, 1000]);
    const c = parseConfig({ ...base, EVM_REORG_DEPTH: '0', EVM_HEAD_TTL_MS: '250' });
    expect([c.evmReorgDepth, c.evmHeadTtlMs]).toEqual([0, 250]);
    expect(() => parseConfig({ ...base, EVM_REORG_DEPTH: 'deep' })).toThrow(/EVM_REORG_DEPTH: EVM_REORG_DEPTH must be a number of blocks/);
    expect(() => parseConfig({ ...base, EVM_HEAD_TTL_MS: '-1' })).toThrow(/EVM_HEAD_TTL_MS/);
  });

  it('reads older history in windows of 1,000 transactions unless told, and refuses a window under 10', () => {
    expect(parseConfig(base).evmHistoryWindow).toBe(1000);
    expect(parseConfig({ ...base, EVM_HISTORY_WINDOW: '25' }).evmHistoryWindow).toBe(25);
    expect(() => parseConfig({ ...base, EVM_HISTORY_WINDOW: '9' })).toThrow(/EVM_HISTORY_WINDOW/);
    expect(() => parseConfig({ ...base, EVM_HISTORY_WINDOW: 'many' })).toThrow(/EVM_HISTORY_WINDOW: EVM_HISTORY_WINDOW must be a number of transactions/);
  });

  it('follows heads over each devnet’s own WebSocket, EVM_WS_URL(S) for another node, else polls', () => {
    const ws = (env: Record<string, string>) => parseConfig({ ...base, ...env }).evmNodes.map((n) => n.wsUrl);
    expect(ws({})).toEqual(['ws://127.0.0.1:8545', 'ws://127.0.0.1:8546']);
    expect(ws({ DEVNET_EVM_PORT: '9545' })[0]).toBe('ws://127.0.0.1:9545');
    expect(ws({ EVM_RPC_URL: 'https://rpc.example/key' })).toEqual([null]);
    expect(ws({ EVM_RPC_URL: 'http://127.0.0.1:7545' })).toEqual(['ws://127.0.0.1:7545']);
    expect(ws({ EVM_RPC_URL: 'https://rpc.example/key', EVM_WS_URL: 'wss://ws.example/key/' })).toEqual(['wss://ws.example/key']);
    expect(ws({ EVM_RPC_URLS: 'eth=https://a.example/k,polygon=https://b.example/k', EVM_WS_URLS: 'polygon=wss://b.example/k/' })).toEqual([null, 'wss://b.example/k']);
    expect(() => parseConfig({ ...base, EVM_WS_URL: 'https://ws.example' })).toThrow(/EVM_WS_URL: EVM_WS_URL must be a ws:\/\/ or wss:\/\/ URL/);
    expect(() => parseConfig({ ...base, EVM_RPC_URLS: 'eth=https://a.example/k', EVM_WS_URLS: 'eth=https://a.example/k' })).toThrow(/EVM_WS_URLS: the WebSocket for eth \(entry 1\) must be a ws/);
    expect(() => parseConfig({ ...base, EVM_RPC_URLS: 'eth=https://a.example/k', EVM_WS_URLS: 'polygon=wss://b.example/k' })).toThrow(/EVM_WS_URLS: polygon has no node in EVM_RPC_URLS/);
    // A key in the URL never reaches the message.
    expect(() => parseConfig({ ...base, EVM_RPC_URLS: 'eth=https://a.example/k', EVM_WS_URLS: 'eth=ftp://secret-key.example' })).toThrow(
      /^(?![\s\S]*secret-key)[\s\S]*EVM_WS_URLS: the WebSocket for eth/,
    );
    expect(parseConfig(base).evmHeadPollMs).toBe(1000);
    expect(() => parseConfig({ ...base, EVM_HEAD_POLL_MS: '10' })).toThrow(/EVM_HEAD_POLL_MS/);
  });

  it('polls hosted first pages no more often than every 5 s, and limits streams per address', () => {
    const c = parseConfig(base);
    expect([c.liveHostedPollS, c.liveHostedPerMinute, c.liveStreamsPerIp, c.liveMaxStreams, c.liveHeartbeatS, c.liveLeaseMs]).toEqual([15, 60, 20, 10_000, 15, 5000]);
    expect(() => parseConfig({ ...base, LIVE_HOSTED_POLL_S: '4' })).toThrow(/LIVE_HOSTED_POLL_S/);
    expect(() => parseConfig({ ...base, LIVE_STREAMS_PER_IP: '0' })).toThrow(/LIVE_STREAMS_PER_IP/);
    expect(() => parseConfig({ ...base, LIVE_LEASE_MS: '500' })).toThrow(/LIVE_LEASE_MS/);
  });

  it('switches to hosted mode with a key, and the ledger defaults follow', () => {
    const c = parseConfig({ ...base, DATA_API_KEY: 'abcdefgh12345' });
    expect(c.mode).toBe('hosted');
    expect(c.ledgerUrls.mainnet).toBe('https://mainnet-aptos-api.moralis.io');
  });

  it('follows the devnet ports and strips trailing slashes', () => {
    const c = parseConfig({ ...base, DEVNET_EVM_PORT: '9545', DEVNET_EVM2_PORT: '9546', DEVNET_LEDGER_PORT: '9080', DATA_API_URL: 'http://x.test/' });
    expect(c.evmNodes.map((n) => n.url)).toEqual(['http://127.0.0.1:9545', 'http://127.0.0.1:9546']);
    expect(c.ledgerUrls.local).toBe('http://127.0.0.1:9080/v1');
    expect(c.dataApiUrl).toBe('http://x.test');
  });

  it('reads one node per chain from EVM_RPC_URLS (names or hex ids) beside EVM_RPC_URL, whose chain the node says', () => {
    const c = parseConfig({ ...base, EVM_RPC_URL: 'http://127.0.0.1:7000/', EVM_RPC_URLS: ' eth=https://eth.example/key/abc , Polygon-Amoy=http://10.0.0.5:8545,0x2105=https://base.example/v2/k' });
    expect(c.evmNodes).toEqual([
      { url: 'http://127.0.0.1:7000', chainId: null, variable: 'EVM_RPC_URL', wsUrl: 'ws://127.0.0.1:7000' },
      { url: 'https://eth.example/key/abc', chainId: 1, variable: 'EVM_RPC_URLS (eth)', wsUrl: null },
      { url: 'http://10.0.0.5:8545', chainId: 80002, variable: 'EVM_RPC_URLS (polygon amoy)', wsUrl: null },
      { url: 'https://base.example/v2/k', chainId: 8453, variable: 'EVM_RPC_URLS (base)', wsUrl: null },
    ]);
    // A chain the registry does not know, by its hex id; and a key in the node's query string.
    expect(parseConfig({ ...base, EVM_RPC_URLS: '0x539=http://127.0.0.1:8545?apikey=a=b' }).evmNodes).toEqual([
      { url: 'http://127.0.0.1:8545?apikey=a=b', chainId: 1337, variable: 'EVM_RPC_URLS (0x539)', wsUrl: null },
    ]);
    // Hosted mode reads no node unless told: the local devnets are not assumed.
    expect(parseConfig({ ...base, DATA_API_KEY: 'abcdefgh12345' }).evmNodes).toEqual([]);
    expect(parseConfig({ ...base, DATA_API_KEY: 'abcdefgh12345', EVM_RPC_URLS: 'polygon=https://p.example' }).evmNodes).toHaveLength(1);
  });

  it.each([
    ['polygon', /EVM_RPC_URLS: entry 1 is not chain=url/],
    ['dogechain=https://d.example', /EVM_RPC_URLS: entry 1 names an unknown chain "dogechain"/],
    ['eth=https://a.example/secret-key,polygon=ftp://secret-host/secret-key', /EVM_RPC_URLS: the node for polygon \(entry 2\) must be an http\(s\) URL/],
    ['eth=https://a.example/secret-key,0x1=https://b.example/secret-key', /EVM_RPC_URLS: two nodes for eth \(0x1\); name one node per chain/],
  ])('refuses EVM_RPC_URLS=%s naming the variable, never the URL', (value, message) => {
    let err: Error | undefined;
    try {
      parseConfig({ ...base, EVM_RPC_URLS: value });
    } catch (e) {
      err = e as Error;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect(err!.message).toMatch(message);
    expect(err!.message).not.toMatch(/secret|example/);
  });

  it('DEFAULT_CHAIN has one meaning, and must be a chain the server serves', () => {
    expect(parseConfig({ ...base, DEFAULT_CHAIN: 'devnet2' }).defaultChainId).toBe(31338);
    expect(parseConfig({ ...base, DEFAULT_CHAIN: '0x7a6a' }).defaultChainId).toBe(31338);
    expect(() => parseConfig({ ...base, DEFAULT_CHAIN: 'polygon' })).toThrow(/DEFAULT_CHAIN: polygon \(0x89\) is not served by this Lantern: no node for it \(EVM_RPC_URL, EVM_RPC_URLS\) and no DATA_API_KEY/);
    expect(() => parseConfig({ ...base, DEFAULT_CHAIN: 'narnia' })).toThrow(/DEFAULT_CHAIN: not a chain Lantern knows/);
    // EVM_RPC_URL's node may be the one: checked at start-up, once it has said its chain.
    expect(parseConfig({ ...base, EVM_RPC_URL: 'http://127.0.0.1:7000', DEFAULT_CHAIN: 'polygon' }).defaultChainId).toBe(137);
    // Hosted: every chain of the registry; a local devnet means the hosted API is a Lantern reading them.
    const hosted = parseConfig({ ...base, DATA_API_KEY: 'abcdefgh12345', DEFAULT_CHAIN: 'devnet' });
    expect([hosted.defaultChainId, hosted.hostedDevnets]).toEqual([31337, true]);
    expect(parseConfig({ ...base, DATA_API_KEY: 'abcdefgh12345', DEFAULT_CHAIN: 'polygon' }).hostedDevnets).toBe(false);
  });

  it('splits API_KEYS on commas', () => {
    expect(parseConfig({ ...base, API_KEYS: ' a-key , b-key,,' }).apiKeys).toEqual(['a-key', 'b-key']);
  });

  it.each([
    ['EVM_RPC_URL', 'not a url'],
    ['DATABASE_URL', 'mysql://x'],
    ['DEVNET_EVM_PORT', '70000'],
    ['DEVNET_EVM2_PORT', '0'],
    ['RATE_LIMIT_PER_MINUTE', 'lots'],
    ['SESSION_SECRET', 'short'],
    ['REDIS_URL', 'http://redis'],
  ])('a bad %s stops start-up naming the variable', (name, value) => {
    expect(() => parseConfig({ ...base, [name]: value })).toThrow(ConfigError);
    expect(() => parseConfig({ ...base, [name]: value })).toThrow(new RegExp(`^[\\s\\S]*${name}:`));
  });

  it('never puts the bad value in the message (it may be a secret)', () => {
    // The refusal is caught and returned, so an unexpected success fails the first expect instead of being swallowed.
    const refusal = (() => {
      try {
        parseConfig({ ...base, SESSION_SECRET: 'hunter2-short' });
      } catch (e) {
        return e;
      }
    })();
    expect(refusal).toBeInstanceOf(ConfigError);
    expect((refusal as Error).message).toMatch(/SESSION_SECRET:/);
    expect((refusal as Error).message).not.toContain('hunter2');
  });

  it('requires SESSION_SECRET in production', () => {
    expect(() => parseConfig({ ...base, NODE_ENV: 'production' })).toThrow(/SESSION_SECRET: required in production/);
    const prod = { ...base, NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32), PUBLIC_URL: 'https://lantern.example' };
    expect(parseConfig(prod).sessionSecret).toBe('x'.repeat(32));
  });

  it('requires PUBLIC_URL in production, saying what to set, but not while building', () => {
    const prod = { ...base, NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32) } as const;
    expect(() => parseConfig(prod)).toThrow(/PUBLIC_URL: required in production[\s\S]*PUBLIC_URL=https:\/\/lantern\.example\.com/);
    expect(parseConfig({ ...prod, NEXT_PHASE: 'phase-production-build' }).publicOrigins).toEqual(['http://localhost:3000', 'http://127.0.0.1:3000']);
  });

  it('reads PUBLIC_URL as normalised origins and refuses paths, other schemes and ALLOWED_ORIGINS alone', () => {
    expect(parseConfig({ ...base, PUBLIC_URL: 'https://Lantern.Example:443/, http://10.0.0.5:8080' }).publicOrigins).toEqual([
      'https://lantern.example',
      'http://10.0.0.5:8080',
    ]);
    expect(() => parseConfig({ ...base, PUBLIC_URL: 'https://lantern.example/app' })).toThrow(/PUBLIC_URL: .* must be an origin only/);
    expect(() => parseConfig({ ...base, PUBLIC_URL: 'ftp://lantern.example' })).toThrow(/PUBLIC_URL: .* must be an http\(s\) origin/);
    expect(() => parseConfig({ ...base, ALLOWED_ORIGINS: 'https://a.example' })).toThrow(/ALLOWED_ORIGINS: renamed PUBLIC_URL/);
  });

  it('defaults PUBLIC_URL to the development server itself, by PORT', () => {
    expect(parseConfig({ ...base, PORT: '4000' }).publicOrigins).toEqual(['http://localhost:4000', 'http://127.0.0.1:4000']);
  });

  it('generates and keeps a development secret', () => {
    const a = parseConfig(base).sessionSecret;
    const b = parseConfig(base).sessionSecret;
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(b).toBe(a);
  });
});
