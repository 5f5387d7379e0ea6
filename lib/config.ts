import 'server-only';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { LOCAL_DEVNETS, chainById, chainOrCustom, findChain, hexChainId } from './chains';
import { developmentOrigins, parsePublicOrigins } from './public-origins.mjs';

/**
 * Every environment variable Lantern reads, validated once. `loadConfig()` runs at start-up from
 * `instrumentation.ts`, so a bad value stops the server with a message naming the variable, and
 * everything else calls `config()` for the parsed, typed result.
 * The README's configuration table mirrors this schema.
 */

const url = (name: string) =>
  z.url({ protocol: /^https?$/, error: `${name} must be an http(s) URL` }).transform((u) => u.replace(/\/+$/, ''));
const optionalUrl = (name: string) => z.preprocess(emptyToUndefined, url(name).optional());
const port = (name: string, fallback: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number({ error: `${name} must be a port number` }).int().min(1).max(65535).default(fallback));
const list = z
  .preprocess(emptyToUndefined, z.string().optional())
  .transform((s) => (s ? s.split(',').map((x) => x.trim()).filter(Boolean) : []));

function emptyToUndefined(v: unknown) {
  return typeof v === 'string' && v.trim() === '' ? undefined : v;
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATA_API_KEY: z.preprocess(emptyToUndefined, z.string().min(8, 'DATA_API_KEY looks too short to be an API key').optional()),
  DATA_API_URL: z.preprocess(emptyToUndefined, url('DATA_API_URL').default('https://deep-index.moralis.io')),
  AUTH_API_URL: z.preprocess(emptyToUndefined, url('AUTH_API_URL').default('https://authapi.moralis.io')),
  LEDGER_API_URL_MAINNET: optionalUrl('LEDGER_API_URL_MAINNET'),
  LEDGER_API_URL_TESTNET: optionalUrl('LEDGER_API_URL_TESTNET'),
  LEDGER_API_URL_LOCAL: optionalUrl('LEDGER_API_URL_LOCAL'),
  EVM_RPC_URL: optionalUrl('EVM_RPC_URL'),
  EVM_RPC_URLS: z.preprocess(emptyToUndefined, z.string().optional()),
  EVM_REORG_DEPTH: z.preprocess(emptyToUndefined, z.coerce.number({ error: 'EVM_REORG_DEPTH must be a number of blocks' }).int().min(0).max(10_000).default(12)),
  EVM_HISTORY_WINDOW: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ error: 'EVM_HISTORY_WINDOW must be a number of transactions' }).int().min(10).max(100_000).default(1000),
  ),
  EVM_BACKGROUND_CALLS_PER_SECOND: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ error: 'EVM_BACKGROUND_CALLS_PER_SECOND must be a number of calls (0: no limit)' }).int().min(0).max(1_000_000).default(400),
  ),
  EVM_HEAD_TTL_MS: z.preprocess(emptyToUndefined, z.coerce.number({ error: 'EVM_HEAD_TTL_MS must be a number of milliseconds' }).int().min(0).max(60_000).default(1000)),
  EVM_WS_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^wss?$/, error: 'EVM_WS_URL must be a ws:// or wss:// URL' }).optional()),
  EVM_WS_URLS: z.preprocess(emptyToUndefined, z.string().optional()),
  EVM_HEAD_POLL_MS: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ error: 'EVM_HEAD_POLL_MS must be a number of milliseconds' }).int().min(100).max(60_000).default(1000),
  ),
  LIVE_HOSTED_POLL_S: z.preprocess(emptyToUndefined, z.coerce.number({ error: 'LIVE_HOSTED_POLL_S must be a number of seconds' }).int().min(5).max(3600).default(15)),
  LIVE_HOSTED_PER_MINUTE: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ error: 'LIVE_HOSTED_PER_MINUTE must be a number of requests' }).int().min(1).max(100_000).default(60),
  ),
  LIVE_STREAMS_PER_IP: z.preprocess(emptyToUndefined, z.coerce.number({ error: 'LIVE_STREAMS_PER_IP must be a number of streams' }).int().min(1).max(100_000).default(20)),
  LIVE_MAX_STREAMS: z.preprocess(emptyToUndefined, z.coerce.number({ error: 'LIVE_MAX_STREAMS must be a number of streams' }).int().min(1).max(1_000_000).default(10_000)),
  LIVE_HEARTBEAT_S: z.preprocess(emptyToUndefined, z.coerce.number({ error: 'LIVE_HEARTBEAT_S must be a number of seconds' }).int().min(1).max(300).default(15)),
  LIVE_LEASE_MS: z.preprocess(emptyToUndefined, z.coerce.number({ error: 'LIVE_LEASE_MS must be a number of milliseconds' }).int().min(1000).max(600_000).default(5000)),
  ENS_RPC_URL: optionalUrl('ENS_RPC_URL'),
  SOURCIFY_URL: optionalUrl('SOURCIFY_URL'),
  SIGNATURE_LOOKUP_URL: optionalUrl('SIGNATURE_LOOKUP_URL'),
  DEFAULT_CHAIN: z.preprocess(emptyToUndefined, z.string().max(32).optional()),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z.string().regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// or postgresql:// URL').optional(),
  ),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('.data')),
  SESSION_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional()),
  API_KEYS: list,
  PUBLIC_URL: z.preprocess(emptyToUndefined, z.string().optional()),
  ALLOWED_ORIGINS: list,
  CORS_ORIGINS: list,
  REDIS_URL: z.preprocess(emptyToUndefined, z.string().regex(/^rediss?:\/\//, 'REDIS_URL must be a redis:// URL').optional()),
  RATE_LIMIT_PER_MINUTE: z.preprocess(emptyToUndefined, z.coerce.number({ error: 'RATE_LIMIT_PER_MINUTE must be a number' }).int().min(0).default(300)),
  TRUSTED_PROXY: z.preprocess(emptyToUndefined, z.coerce.number({ error: 'TRUSTED_PROXY must be the number of proxy hops to trust' }).int().min(0).max(10).default(0)),
  UPSTREAM_CACHE: z.preprocess(emptyToUndefined, z.enum(['on', 'off'], { error: 'UPSTREAM_CACHE must be on or off' }).default('on')),
  UPSTREAM_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number({ error: 'UPSTREAM_TIMEOUT_MS must be a number' }).int().min(100).max(120_000).default(10_000)),
  LANTERN_TEST_CLOCK_OFFSET_MS: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ error: 'LANTERN_TEST_CLOCK_OFFSET_MS must be a number of milliseconds' }).int().min(0).default(0),
  ),
  LANTERN_TEST_CLOCK_FILE: z.preprocess(emptyToUndefined, z.string().optional()),
  LANTERN_DEVNET_DRIVER: z.preprocess(emptyToUndefined, z.string().regex(/^http:\/\/127\.0\.0\.1:\d{1,5}\/[0-9a-f]{32}$/, 'LANTERN_DEVNET_DRIVER is set by npm run dev only').optional()),
  UPSTREAM_PROBE_INTERVAL_MS: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ error: 'UPSTREAM_PROBE_INTERVAL_MS must be a number of milliseconds' }).int().min(0).max(600_000).default(5000),
  ),
  UPSTREAM_BREAKER_FAILURES: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ error: 'UPSTREAM_BREAKER_FAILURES must be a whole number' }).int().min(1).max(1_000_000).default(3),
  ),
  NFT_IPFS_GATEWAY: z.preprocess(emptyToUndefined, url('NFT_IPFS_GATEWAY').default('https://ipfs.io/ipfs')),
  NFT_ARWEAVE_GATEWAY: z.preprocess(emptyToUndefined, url('NFT_ARWEAVE_GATEWAY').default('https://arweave.net')),
  NFT_MEDIA_ORIGINS: list,
  NFT_METADATA_ALLOW_HOSTS: list.pipe(
    z.array(z.string().regex(/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+|[0-9a-f:.]+)(:\d{1,5})?$/i, 'NFT_METADATA_ALLOW_HOSTS: each entry is host or host:port')),
  ),
  WALLETCONNECT_PROJECT_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  DEVNET_EVM_PORT: port('DEVNET_EVM_PORT', 8545),
  DEVNET_EVM2_PORT: port('DEVNET_EVM2_PORT', 8546),
  DEVNET_LEDGER_PORT: port('DEVNET_LEDGER_PORT', 8080),
  LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
});

export type LedgerNetwork = 'mainnet' | 'testnet' | 'local';

/** One EVM JSON-RPC node Lantern reads, as the configuration names it. */
export interface EvmNodeConfig {
  /** The node's URL. It may carry a provider key: never logged nor shown (hosts only). */
  url: string;
  /** The chain the configuration names for it; null: the node says (EVM_RPC_URL), checked at start-up. */
  chainId: number | null;
  /** Where the configuration names it, for messages: `EVM_RPC_URLS (polygon)`, `EVM_RPC_URL`, `DEVNET_EVM2_PORT`. */
  variable: string;
  /**
   * Where the node pushes new heads (`eth_subscribe newHeads`): EVM_WS_URL for EVM_RPC_URL's node,
   * EVM_WS_URLS' entry for a named one, else the node's own URL as ws:// when it is on loopback (anvil
   * serves WebSocket on its HTTP port); null: the head follower polls every evmHeadPollMs.
   */
  wsUrl: string | null;
}

export interface Config {
  env: 'development' | 'production' | 'test';
  /** `hosted`: a DATA_API_KEY is set and the hosted data API answers; `node`: Lantern's own sources. */
  mode: 'hosted' | 'node';
  dataApiKey?: string;
  dataApiUrl: string;
  authApiUrl: string;
  /** Base to which `/blocks/by_version/{version}` is appended, per network. */
  ledgerUrls: Record<LedgerNetwork, string>;
  /**
   * The EVM nodes Lantern reads, one per chain: EVM_RPC_URL's (its chain read from the node) and
   * EVM_RPC_URLS' (`chain=url,...`); neither set and no DATA_API_KEY: the two local devnets of `npm run dev`.
   */
  evmNodes: EvmNodeConfig[];
  /** Blocks this close to the head may still be replaced: indexed, rescanned next time, never kept as final (devnet too). */
  evmReorgDepth: number;
  /** How long one read of the node's head (and its hash) is shared by the requests of an instance. */
  evmHeadTtlMs: number;
  /** Transactions per window when a wallet's older history is read in the background (one ots_ page). */
  evmHistoryWindow: number;
  /** Node calls per second per chain that background reads may make (0: no limit); pages always go first. */
  evmBackgroundCallsPerSecond: number;
  evmHeadPollMs: number;
  /** Live pages (lib/live): hosted mode polls each watched wallet's first page this often, at least. */
  liveHostedPollS: number;
  /** ... and sends the hosted API at most this many such requests a minute, across all instances. */
  liveHostedPerMinute: number;
  /** Open live streams one client address may hold on an instance, and all clients together. */
  liveStreamsPerIp: number;
  liveMaxStreams: number;
  /** Seconds between heartbeats (an SSE comment) on an idle stream. */
  liveHeartbeatS: number;
  /** How long the instance following a chain holds its lease without renewing it (another takes over after). */
  liveLeaseMs: number;
  ensRpcUrl?: string;
  /** DEFAULT_CHAIN's chain id: what a request naming no chain means. Null: the first node's chain, else eth. */
  defaultChainId: number | null;
  /** Hosted mode with DEFAULT_CHAIN a local devnet: the hosted API is another Lantern reading the devnets, which it is asked for. */
  hostedDevnets: boolean;
  /** A Sourcify-compatible server (`{url}/v2/contract/{chainId}/{address}?fields=abi`): verified ABIs, read in the background. */
  sourcifyUrl?: string;
  /** An OpenChain-compatible signature database (`{url}/signature-database/v1/lookup`), asked in the background. */
  signatureLookupUrl?: string;
  databaseUrl?: string;
  dataDir: string;
  sessionSecret: string;
  apiKeys: string[];
  /**
   * PUBLIC_URL: the origins Lantern is served at. Lantern's own sign-in takes its domain and URI from
   * these and nothing else; server actions from any other Origin are refused.
   */
  publicOrigins: string[];
  corsOrigins: string[];
  redisUrl?: string;
  rateLimitPerMinute: number;
  trustedProxyHops: number;
  upstreamTimeoutMs: number;
  /** Tests only: how far ahead of the wall clock this server's clock runs (lib/clock.ts). */
  testClockOffsetMs: number;
  /** Tests only: a file holding a further offset in ms, read at every reading of the clock. */
  testClockFile: string | null;
  /** `npm run dev`'s control of the devnet's live driver (its loopback URL with a one-run secret); null anywhere else. */
  devnetDriver: string | null;
  /** How long an upstream's open breaker answers 503 at once before one request probes it again. */
  upstreamProbeIntervalMs: number;
  /** Different requests failing in a row (refused, reset, timed out, 5xx) that open an upstream's breaker; one request failing never does. */
  upstreamBreakerFailures: number;
  /** Off only for measuring: every request then reaches the upstream. */
  upstreamCache: boolean;
  ipfsGateway: string;
  arweaveGateway: string;
  /** Further origins NFT images may load from (a provider's preview CDN); the CSP allows only these. */
  nftMediaOrigins: string[];
  /**
   * Hosts (`host` or `host:port`) the NFT metadata fetcher may reach although their address is not
   * public (an operator's own IPFS node). Empty by default: only public addresses are fetched.
   */
  nftMetadataAllowHosts: string[];
  walletConnectProjectId?: string;
  devnetEvmPort: number;
  devnetEvm2Port: number;
  devnetLedgerPort: number;
  logLevel: string;
}

export class ConfigError extends Error {}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    // Name the variable and the rule; never the value, which may be a secret.
    const lines = parsed.error.issues.map((i) => `  ${String(i.path[0] ?? '?')}: ${i.message}`);
    throw new ConfigError(`Lantern's configuration is invalid:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const mode = e.DATA_API_KEY ? 'hosted' : 'node';
  const evmNodes = evmNodesFrom(e, mode);
  const defaultChainId = defaultChainFrom(e, mode, evmNodes);
  const ledgerDefaults =
    mode === 'hosted'
      ? { mainnet: 'https://mainnet-aptos-api.moralis.io', testnet: 'https://testnet-aptos-api.moralis.io' }
      : { mainnet: 'https://api.mainnet.aptoslabs.com/v1', testnet: 'https://api.testnet.aptoslabs.com/v1' };
  if (e.NODE_ENV === 'production' && !e.SESSION_SECRET) {
    throw new ConfigError("Lantern's configuration is invalid:\n  SESSION_SECRET: required in production (32 or more random characters)");
  }
  const publicOrigins = publicOriginsFrom(e, env);
  return {
    env: e.NODE_ENV,
    mode,
    dataApiKey: e.DATA_API_KEY,
    dataApiUrl: e.DATA_API_URL,
    authApiUrl: e.AUTH_API_URL,
    ledgerUrls: {
      mainnet: e.LEDGER_API_URL_MAINNET ?? ledgerDefaults.mainnet,
      testnet: e.LEDGER_API_URL_TESTNET ?? ledgerDefaults.testnet,
      local: e.LEDGER_API_URL_LOCAL ?? `http://127.0.0.1:${e.DEVNET_LEDGER_PORT}/v1`,
    },
    evmNodes,
    evmReorgDepth: e.EVM_REORG_DEPTH,
    evmHeadTtlMs: e.EVM_HEAD_TTL_MS,
    evmHistoryWindow: e.EVM_HISTORY_WINDOW,
    evmBackgroundCallsPerSecond: e.EVM_BACKGROUND_CALLS_PER_SECOND,
    evmHeadPollMs: e.EVM_HEAD_POLL_MS,
    liveHostedPollS: e.LIVE_HOSTED_POLL_S,
    liveHostedPerMinute: e.LIVE_HOSTED_PER_MINUTE,
    liveStreamsPerIp: e.LIVE_STREAMS_PER_IP,
    liveMaxStreams: e.LIVE_MAX_STREAMS,
    liveHeartbeatS: e.LIVE_HEARTBEAT_S,
    liveLeaseMs: e.LIVE_LEASE_MS,
    ensRpcUrl: e.ENS_RPC_URL,
    defaultChainId,
    hostedDevnets: mode === 'hosted' && LOCAL_DEVNETS.some((d) => d.id === defaultChainId),
    sourcifyUrl: e.SOURCIFY_URL,
    signatureLookupUrl: e.SIGNATURE_LOOKUP_URL,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    sessionSecret: e.SESSION_SECRET ?? developmentSecret(e.DATA_DIR),
    apiKeys: e.API_KEYS,
    publicOrigins,
    corsOrigins: e.CORS_ORIGINS,
    redisUrl: e.REDIS_URL,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    trustedProxyHops: e.TRUSTED_PROXY,
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    testClockOffsetMs: e.LANTERN_TEST_CLOCK_OFFSET_MS,
    testClockFile: e.LANTERN_TEST_CLOCK_FILE ?? null,
    // Only `npm run dev` on its own devnets: never in production or hosted mode, whatever the environment says.
    devnetDriver: e.NODE_ENV === 'development' && mode === 'node' && e.LANTERN_DEVNET_DRIVER ? e.LANTERN_DEVNET_DRIVER : null,
    upstreamProbeIntervalMs: e.UPSTREAM_PROBE_INTERVAL_MS,
    upstreamBreakerFailures: e.UPSTREAM_BREAKER_FAILURES,
    upstreamCache: e.UPSTREAM_CACHE === 'on',
    ipfsGateway: e.NFT_IPFS_GATEWAY,
    arweaveGateway: e.NFT_ARWEAVE_GATEWAY,
    nftMediaOrigins: e.NFT_MEDIA_ORIGINS,
    nftMetadataAllowHosts: e.NFT_METADATA_ALLOW_HOSTS.map((h) => h.toLowerCase()),
    walletConnectProjectId: e.WALLETCONNECT_PROJECT_ID,
    devnetEvmPort: e.DEVNET_EVM_PORT,
    devnetEvm2Port: e.DEVNET_EVM2_PORT,
    devnetLedgerPort: e.DEVNET_LEDGER_PORT,
    logLevel: e.LOG_LEVEL,
  };
}

function publicOriginsFrom(e: z.output<typeof envSchema>, env: Record<string, string | undefined>): string[] {
  if (e.ALLOWED_ORIGINS.length > 0 && !e.PUBLIC_URL) {
    throw new ConfigError("Lantern's configuration is invalid:\n  ALLOWED_ORIGINS: renamed PUBLIC_URL (the origins Lantern is served at); set PUBLIC_URL instead");
  }
  let origins: string[];
  try {
    origins = parsePublicOrigins(e.PUBLIC_URL);
  } catch (err) {
    throw new ConfigError(`Lantern's configuration is invalid:\n  ${(err as Error).message}`);
  }
  if (origins.length > 0) return origins;
  // `next build` runs with NODE_ENV=production but serves nobody: the requirement is for `npm start`.
  if (e.NODE_ENV === 'production' && env.NEXT_PHASE !== 'phase-production-build') {
    throw new ConfigError(
      "Lantern's configuration is invalid:\n  PUBLIC_URL: required in production: the origin people open Lantern at, for example " +
        'PUBLIC_URL=https://lantern.example.com (several: comma-separated). Sign-in messages are made for this domain only.',
    );
  }
  return developmentOrigins(env.PORT ?? 3000);
}

const invalid = (line: string) => new ConfigError(`Lantern's configuration is invalid:\n  ${line}`);

/**
 * The nodes: EVM_RPC_URL (its chain read from the node) and EVM_RPC_URLS (`name=url` or `0xhex=url`,
 * comma-separated); with neither and no key, the two local devnets. Messages name the entry by its chain,
 * never by its URL (which may hold a key).
 */
function evmNodesFrom(e: z.output<typeof envSchema>, mode: 'hosted' | 'node'): EvmNodeConfig[] {
  const nodes: EvmNodeConfig[] = [];
  const sockets = wsUrlsFrom(e);
  const ws = (url: string, named?: string) => named ?? (isLocal(url) ? url.replace(/^http/, 'ws') : null);
  if (e.EVM_RPC_URL) nodes.push({ url: e.EVM_RPC_URL, chainId: null, variable: 'EVM_RPC_URL', wsUrl: ws(e.EVM_RPC_URL, e.EVM_WS_URL?.replace(/\/+$/, '')) });
  const entries = (e.EVM_RPC_URLS ?? '').split(',').map((x) => x.trim()).filter(Boolean);
  entries.forEach((entry, i) => {
    const eq = entry.indexOf('=');
    if (eq <= 0) throw invalid(`EVM_RPC_URLS: entry ${i + 1} is not chain=url (a chain name such as eth or polygon, or a hex chain id such as 0x2105, then = and the node's URL)`);
    const name = entry.slice(0, eq).trim();
    const shown = name.length > 32 ? `${name.slice(0, 32)}...` : name;
    const id = findChain(name)?.id ?? hexChainId(name);
    if (id === undefined) throw invalid(`EVM_RPC_URLS: entry ${i + 1} names an unknown chain "${shown}" (use a chain name such as eth or polygon, or a hex chain id such as 0x2105)`);
    const chain = chainOrCustom(id);
    const url = z.url({ protocol: /^https?$/ }).safeParse(entry.slice(eq + 1).trim());
    if (!url.success) throw invalid(`EVM_RPC_URLS: the node for ${chain.name} (entry ${i + 1}) must be an http(s) URL`);
    const twice = nodes.find((n) => n.chainId === id);
    if (twice) throw invalid(`EVM_RPC_URLS: two nodes for ${chain.name} (${chain.hex}); name one node per chain`);
    const nodeUrl = url.data.replace(/\/+$/, '');
    nodes.push({ url: nodeUrl, chainId: id, variable: `EVM_RPC_URLS (${chain.name})`, wsUrl: ws(nodeUrl, sockets.get(id)) });
  });
  if (nodes.length > 0 || mode === 'hosted') return nodes;
  // `npm run dev`: both local devnets, on their ports.
  return [
    { url: `http://127.0.0.1:${e.DEVNET_EVM_PORT}`, chainId: LOCAL_DEVNETS[0].id, variable: 'DEVNET_EVM_PORT (the local devnet)', wsUrl: `ws://127.0.0.1:${e.DEVNET_EVM_PORT}` },
    { url: `http://127.0.0.1:${e.DEVNET_EVM2_PORT}`, chainId: LOCAL_DEVNETS[1].id, variable: 'DEVNET_EVM2_PORT (the second local devnet)', wsUrl: `ws://127.0.0.1:${e.DEVNET_EVM2_PORT}` },
  ];
}

/** A node on loopback: anvil, which serves WebSocket on its HTTP port. */
const isLocal = (u: string) => /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(u);

/** EVM_WS_URLS (`chain=ws-url,...`): the WebSocket of a node EVM_RPC_URLS names, by chain id. */
function wsUrlsFrom(e: z.output<typeof envSchema>): Map<number, string> {
  const out = new Map<number, string>();
  const entries = (e.EVM_WS_URLS ?? '').split(',').map((x) => x.trim()).filter(Boolean);
  entries.forEach((entry, i) => {
    const eq = entry.indexOf('=');
    const name = eq > 0 ? entry.slice(0, eq).trim() : '';
    const id = name ? (findChain(name)?.id ?? hexChainId(name)) : undefined;
    if (id === undefined) throw invalid(`EVM_WS_URLS: entry ${i + 1} is not chain=ws-url with a chain EVM_RPC_URLS names`);
    const url = z.url({ protocol: /^wss?$/ }).safeParse(entry.slice(eq + 1).trim());
    if (!url.success) throw invalid(`EVM_WS_URLS: the WebSocket for ${chainOrCustom(id).name} (entry ${i + 1}) must be a ws:// or wss:// URL`);
    out.set(id, url.data.replace(/\/+$/, ''));
  });
  const named = new Set((e.EVM_RPC_URLS ?? '').split(',').map((x) => x.split('=')[0]!.trim()).filter(Boolean).map((n) => findChain(n)?.id ?? hexChainId(n)));
  for (const id of out.keys()) if (!named.has(id)) throw invalid(`EVM_WS_URLS: ${chainOrCustom(id).name} has no node in EVM_RPC_URLS`);
  return out;
}

/**
 * DEFAULT_CHAIN, one meaning everywhere: the chain a request (page, API call, action, CSV) naming none
 * means. It must be a chain this server serves; unset, the first node's chain, else eth.
 */
function defaultChainFrom(e: z.output<typeof envSchema>, mode: 'hosted' | 'node', nodes: EvmNodeConfig[]): number | null {
  if (!e.DEFAULT_CHAIN) return null;
  const id = findChain(e.DEFAULT_CHAIN)?.id ?? hexChainId(e.DEFAULT_CHAIN);
  if (id === undefined) throw invalid('DEFAULT_CHAIN: not a chain Lantern knows (use a chain name such as eth or polygon, or a hex chain id)');
  const chain = chainOrCustom(id);
  const byNode = nodes.some((n) => n.chainId === id);
  // The hosted API serves every chain of the registry (a local devnet: when it is another Lantern, see hostedDevnets).
  const byHosted = mode === 'hosted' && chainById(id) !== undefined;
  // A node whose chain the node itself says (EVM_RPC_URL) may be the one: that is checked at start-up.
  if (!byNode && !byHosted && !nodes.some((n) => n.chainId === null)) {
    throw invalid(`DEFAULT_CHAIN: ${chain.name} (${chain.hex}) is not served by this Lantern: no node for it (EVM_RPC_URL, EVM_RPC_URLS)${mode === 'hosted' ? '' : ' and no DATA_API_KEY'}`);
  }
  return id;
}

/** Development only: a random secret kept under the data dir so sessions survive restarts. */
function developmentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  try {
    const s = readFileSync(file, 'utf8').trim();
    if (s.length >= 32) return s;
  } catch {
    // first run
  }
  const s = randomBytes(32).toString('hex');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, s, { mode: 0o600 });
  return s;
}

let cached: Config | undefined;

/** The validated configuration. Throws ConfigError (naming the variable) when a value is bad. */
export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/** `next build` loads server modules too (to collect pages): there is no database nor upstream then. */
export function isBuildPhase(): boolean {
  return process.env.NEXT_PHASE === 'phase-production-build';
}

/** Tests only: forget the parsed configuration so a changed process.env is read again. */
export function resetConfigForTests() {
  cached = undefined;
}

/** The origin absolute links (link previews, CSV rows) are built on: the first of PUBLIC_URL, never a request's Host. */
export function siteOrigin(): string {
  return config().publicOrigins[0];
}
