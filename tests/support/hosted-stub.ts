import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readReference } from './reference';

/**
 * A local stand-in for the hosted data API: a real HTTP server that speaks the interface the way the
 * real provider does (numbers for page, booleans for possible_spam, `erc20_transfers`, nulls in labels,
 * cursor null on the last page), and that can be told to misbehave. Tests point DATA_API_URL,
 * AUTH_API_URL and LEDGER_API_URL_* at it and count what reached it. Every request is recorded with
 * its query exactly as it arrived; history honours the range filters the way the interface says
 * (from_block over from_date, to_block over to_date), so a filter Lantern failed to pass shows.
 */

export type Fault =
  | { kind: 'status'; status: number; body?: unknown; retryAfter?: string; /** answered this late */ delayMs?: number }
  | { kind: 'hang' }
  | { kind: 'malformed' }
  | { kind: 'wrong-shape' }
  | { kind: 'drop' };

export interface StubRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface HostedStub {
  url: string;
  apiKey: string;
  requests: StubRequest[];
  /** The next `times` requests whose path matches get this fault (default: every one until cleared). */
  fault(match: RegExp, fault: Fault, times?: number): void;
  clearFaults(): void;
  /** How many transactions the stub holds for `address` (default 23). */
  setHistorySize(address: string, n: number): void;
  /** The NFT answer's status for `address` (default SYNCED). */
  setNftStatus(address: string, status: 'SYNCED' | 'SYNCING'): void;
  close(): Promise<void>;
}

const DEFAULT_HISTORY = 23;

export async function startHostedStub(opts: { apiKey: string; port?: number }): Promise<HostedStub> {
  const requests: StubRequest[] = [];
  const faults: { match: RegExp; fault: Fault; left: number }[] = [];
  const historySizes = new Map<string, number>();
  const nftStatuses = new Map<string, string>();
  const sockets = new Set<import('node:net').Socket>();
  const hanging = new Set<ServerResponse>();

  const server: Server = createServer(async (req, res) => {
    const u = new URL(req.url ?? '/', 'http://stub');
    const body = await readBody(req);
    requests.push({ method: req.method ?? 'GET', path: u.pathname, query: u.searchParams, headers: req.headers, body });

    const f = faults.find((x) => x.match.test(u.pathname) && x.left > 0);
    if (f) {
      f.left--;
      switch (f.fault.kind) {
        case 'hang':
          hanging.add(res);
          return; // never answer
        case 'drop':
          req.socket.destroy();
          return;
        case 'malformed':
          return send(res, 200, '{"result": [', 'application/json');
        case 'wrong-shape':
          return json(res, 200, { page: 1, page_size: 100, cursor: null, result: [{ hash: 12345 }], status: 'SYNCED' });
        case 'status':
          if (f.fault.delayMs) await new Promise((r) => setTimeout(r, f.fault.kind === 'status' ? f.fault.delayMs : 0));
          if (f.fault.retryAfter) res.setHeader('Retry-After', f.fault.retryAfter);
          return json(res, f.fault.status, f.fault.body ?? { message: `stub fault ${f.fault.status}` });
      }
    }

    const key = req.headers['x-api-key'];
    if (!key) return json(res, 401, { message: 'API KEY missing from x-api-key header' });
    if (key !== opts.apiKey) return json(res, 401, { message: `Invalid key ${String(key)}` }); // echoes the key, as careless providers do

    try {
      route(req.method ?? 'GET', u, body, res);
    } catch (e) {
      json(res, 500, { message: (e as Error).message });
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  function route(method: string, u: URL, body: string, res: ServerResponse) {
    let m: RegExpMatchArray | null;
    if (method === 'GET' && (m = u.pathname.match(/^\/api\/v2\.2\/wallets\/([^/]+)\/history$/))) {
      return history(decodeURIComponent(m[1]), u.searchParams, res);
    }
    if (method === 'GET' && (m = u.pathname.match(/^\/api\/v2\.2\/wallets\/([^/]+)\/chains$/))) {
      return activeChains(decodeURIComponent(m[1]), u.searchParams, res);
    }
    if (method === 'GET' && (m = u.pathname.match(/^\/api\/v2\.2\/([^/]+)\/nft$/))) {
      return nfts(decodeURIComponent(m[1]), u.searchParams, res);
    }
    if (method === 'GET' && (m = u.pathname.match(/^\/api\/v2\.2\/(0x[0-9a-fA-F]{40})\/balance$/))) {
      return json(res, 200, { balance: String(BigInt(`0x${m[1].slice(-8)}`) * 10n ** 9n) });
    }
    // What a wallet holds, who may spend it and its counts: the provider's documented answers (tests/fixtures/reference).
    if (method === 'GET' && (m = u.pathname.match(/^\/api\/v2\.2\/wallets\/(0x[0-9a-fA-F]{40})\/(tokens|approvals|stats)$/))) {
      const file = { tokens: 'wallet-tokens-docs-first-request.json', approvals: 'wallet-approvals-docs-openapi-example.json', stats: 'wallet-stats-docs-openapi-example.json' }[m[2] as 'tokens' | 'approvals' | 'stats'];
      const body = readReference<{ response: { body: Record<string, unknown> } }>(file).response.body;
      // Paged lists end here: the documented example's cursor is a placeholder for "there is more".
      return json(res, 200, m[2] === 'stats' ? body : { ...body, cursor: param(u, 'cursor') ? null : body.cursor });
    }
    if (method === 'GET' && (m = u.pathname.match(/^\/api\/v2\.2\/(0x[0-9a-fA-F]{40})\/erc20$/))) {
      return json(res, 200, readReference<{ response: { body: unknown[] } }>('wallet-erc20-jssdk-mock.json').response.body);
    }
    if (method === 'GET' && (m = u.pathname.match(/^\/api\/v2\.2\/transaction\/(0x[0-9a-fA-F]{64})(\/verbose)?$/))) {
      const sample = readReference<{ response: { body: Record<string, unknown> } }>(m[2] ? 'transaction-verbose-jssdk-mock.json' : 'transaction-jssdk-mock.json');
      // Internal calls as the provider documents them: no depth (its example's one item, as a list).
      const internal = u.searchParams.get('include') === 'internal_transactions'
        ? { internal_transactions: [readReference<{ response: { body: { internal_transactions: unknown } } }>('transaction-verbose-docs-openapi-example.json').response.body.internal_transactions] }
        : {};
      return json(res, 200, { ...sample.response.body, ...internal, hash: m[1] });
    }
    if (method === 'POST' && u.pathname === '/challenge/request/evm') return challengeRequest(body, res);
    if (method === 'POST' && u.pathname === '/challenge/verify/evm') return challengeVerify(body, res);
    if (method === 'GET' && (m = u.pathname.match(/^(?:\/(mainnet|testnet))?\/blocks\/by_version\/([^/]+)$/))) {
      return block(m[2], u.searchParams, res);
    }
    json(res, 404, { message: 'Not found' });
  }

  /**
   * Active chains as the vendor documents them: `chains[...]` (hex ids or names), eth when none; a chain
   * with an odd id holds the wallet's history (first: transaction 0, last: the newest, as history
   * answers them), one with an even id nothing, and is left out of the answer.
   */
  function activeChains(address: string, q: URLSearchParams, res: ServerResponse) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return json(res, 400, { message: 'Invalid address provided' });
    const asked = [...q.entries()].filter(([k]) => /^chains(\[\d*\])?$/.test(k)).flatMap(([, v]) => v.split(','));
    const ids = (asked.length ? asked : ['0x1']).map((c) => (c === 'eth' ? 1 : Number(c)));
    const total = historySizes.get(address.toLowerCase()) ?? DEFAULT_HISTORY;
    const stamp = (i: number) => {
      const t = transaction(address.toLowerCase(), i);
      return { block_number: t.block_number, block_timestamp: t.block_timestamp, transaction_hash: t.hash };
    };
    const active = ids.filter((id) => Number.isSafeInteger(id) && id % 2 === 1 && total > 0);
    return json(res, 200, {
      address: address.toLowerCase(),
      active_chains: active.map((id) => ({ chain: id === 1 ? 'eth' : `0x${id.toString(16)}`, chain_id: `0x${id.toString(16)}`, first_transaction: stamp(0), last_transaction: stamp(total - 1) })),
    });
  }

  const param = (u: URL, k: string) => u.searchParams.get(k);

  function history(address: string, q: URLSearchParams, res: ServerResponse) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return json(res, 400, { message: 'Invalid address provided' });
    const total = historySizes.get(address.toLowerCase()) ?? DEFAULT_HISTORY;
    const limit = Math.min(Number(q.get('limit') ?? 100), 100);
    const offset = q.get('cursor') ? Number(Buffer.from(q.get('cursor')!, 'base64url').toString()) : 0;
    if (!Number.isInteger(offset)) return json(res, 400, { message: 'Invalid cursor' });
    const asc = (q.get('order') ?? 'DESC').toUpperCase() === 'ASC';
    // Transaction i is in block 19_000_000 + i at 2025-01-01 + i hours (see transaction()).
    const num = (k: string) => (q.has(k) ? Number(q.get(k)) : undefined);
    const date = (k: string) => (q.has(k) ? Date.parse(q.get(k)!) : undefined);
    const [fromBlock, toBlock, fromDate, toDate] = [num('from_block'), num('to_block'), date('from_date'), date('to_date')];
    const inRange = (i: number) => {
      const block = 19_000_000 + i;
      const at = Date.UTC(2025, 0, 1) + i * 3_600_000;
      if (fromBlock !== undefined ? block < fromBlock : fromDate !== undefined && at < fromDate) return false;
      if (toBlock !== undefined ? block > toBlock : toDate !== undefined && at > toDate) return false;
      return true;
    };
    const indices = Array.from({ length: total }, (_, i) => (asc ? i : total - 1 - i))
      .filter(inRange)
      .slice(offset, offset + limit);
    const matching = Array.from({ length: total }, (_, i) => i).filter(inRange).length;
    const next = offset + limit < matching ? Buffer.from(String(offset + limit)).toString('base64url') : null;
    json(res, 200, {
      page: Math.floor(offset / limit) + 1,
      page_size: limit,
      cursor: next,
      result: indices.map((i) => transaction(address.toLowerCase(), i)),
    });
  }

  function nfts(address: string, q: URLSearchParams, res: ServerResponse) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return json(res, 400, { message: 'Invalid address provided' });
    const sample = readReference<{ result: Record<string, unknown>[] }>('wallet-nfts-jssdk-mock-media-success.json');
    const item = { ...sample.result[0], owner_of: address.toLowerCase() };
    const all = Array.from({ length: 5 }, (_, i) => ({ ...item, token_id: String(1000 + i) }));
    const limit = Math.min(Number(q.get('limit') ?? 100), 100);
    const offset = q.get('cursor') ? Number(Buffer.from(q.get('cursor')!, 'base64url').toString()) : 0;
    const next = offset + limit < all.length ? Buffer.from(String(offset + limit)).toString('base64url') : null;
    json(res, 200, { status: nftStatuses.get(address.toLowerCase()) ?? 'SYNCED', total: null, page: Math.floor(offset / limit) + 1, page_size: limit, cursor: next, result: all.slice(offset, offset + limit) });
  }

  function challengeRequest(body: string, res: ServerResponse) {
    const b = JSON.parse(body);
    if (!b.address || !b.domain || !b.uri) return json(res, 400, { message: ['address must be an Ethereum address', 'domain should not be empty'] });
    const message = [
      `${b.domain} wants you to sign in with your Ethereum account:`,
      b.address,
      '',
      ...(b.statement ? [b.statement, ''] : []),
      `URI: ${b.uri}`,
      'Version: 1',
      `Chain ID: ${Number(b.chainId)}`,
      'Nonce: StubNonce0123456789',
      `Issued At: ${new Date().toISOString()}`,
    ].join('\n');
    json(res, 201, { id: 'stubChallenge00001', message, profileId: '0x' + 'ab'.repeat(32) });
  }

  function challengeVerify(body: string, res: ServerResponse) {
    const b = JSON.parse(body);
    const lines = String(b.message ?? '').split('\n');
    const field = (name: string) => lines.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2);
    if (!field('Nonce')) return json(res, 400, { message: 'Invalid message' });
    json(res, 201, {
      id: 'stubVerify000001',
      domain: lines[0].split(' ')[0],
      chainId: field('Chain ID'),
      address: lines[1],
      statement: null,
      uri: field('URI'),
      expirationTime: null,
      notBefore: null,
      resources: [],
      version: field('Version'),
      nonce: field('Nonce'),
      profileId: '0x' + 'ab'.repeat(32),
    });
  }

  function block(version: string, q: URLSearchParams, res: ServerResponse) {
    const sample = readReference<{ first_version: string; last_version: string; transactions?: unknown }>('aptos-block-by-version-86447894-mainnet-nodit.json');
    const v = BigInt(version);
    if (v < 1000n) return json(res, 410, { message: 'Block(5) has been pruned', error_code: 'block_pruned', vm_error_code: null });
    if (v < BigInt(sample.first_version) || v > BigInt(sample.last_version)) {
      return json(res, 404, { message: `Ledger version not found by Ledger version(${version})`, error_code: 'version_not_found', vm_error_code: null });
    }
    if (q.get('with_transactions') !== 'true') delete sample.transactions;
    json(res, 200, sample);
  }

  await new Promise<void>((r) => server.listen(opts.port ?? 0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey: opts.apiKey,
    requests,
    fault: (match, fault, times = Number.POSITIVE_INFINITY) => faults.push({ match, fault, left: times }),
    clearFaults: () => {
      faults.length = 0;
    },
    setHistorySize: (address, n) => historySizes.set(address.toLowerCase(), n),
    setNftStatus: (address, status) => nftStatuses.set(address.toLowerCase(), status),
    close: () =>
      new Promise<void>((r) => {
        for (const h of hanging) h.destroy();
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** A transaction shaped like the provider's v2.2 history entries, deterministic in (wallet, i). */
function transaction(wallet: string, i: number) {
  const hex = (n: number, len: number) => n.toString(16).padStart(len, '0');
  const other = `0x${hex(0xc0ffee + i, 40)}`;
  const outgoing = i % 2 === 0;
  const hash = `0x${hex(i + 1, 8)}${wallet.slice(2, 58)}`;
  const ts = new Date(Date.UTC(2025, 0, 1) + i * 3_600_000).toISOString();
  return {
    hash,
    nonce: String(i),
    transaction_index: String(i % 7),
    from_address_entity: null,
    from_address_entity_logo: null,
    from_address: outgoing ? wallet : other,
    from_address_label: outgoing ? null : 'Binance 14',
    to_address_entity: outgoing ? 'Opensea' : null,
    to_address_entity_logo: outgoing ? 'https://opensea.io/favicon.ico' : null,
    to_address: outgoing ? other : wallet,
    to_address_label: null,
    value: String(10n ** 15n * BigInt(i + 1)),
    gas: '21000',
    gas_price: '52500000000',
    receipt_cumulative_gas_used: '4923073',
    receipt_gas_used: '21000',
    receipt_contract_address: null,
    receipt_status: '1',
    transaction_fee: '0.0011025',
    block_timestamp: ts,
    block_number: String(19_000_000 + i),
    block_hash: `0x${hex(19_000_000 + i, 64)}`,
    category: outgoing ? 'send' : 'receive',
    summary: outgoing ? `Sent ${(i + 1) / 1000} ETH` : `Received ${(i + 1) / 1000} ETH`,
    method_label: null,
    possible_spam: false,
    nft_transfers: [],
    erc20_transfers: [],
    native_transfers: [
      {
        from_address_entity: null,
        from_address_entity_logo: null,
        from_address: outgoing ? wallet : other,
        from_address_label: null,
        to_address_entity: null,
        to_address_entity_logo: null,
        to_address: outgoing ? other : wallet,
        to_address_label: null,
        value: String(10n ** 15n * BigInt(i + 1)),
        value_formatted: String((i + 1) / 1000),
        direction: outgoing ? 'outgoing' : 'incoming',
        internal_transaction: false,
        token_symbol: 'ETH',
        token_logo: 'https://cdn.moralis.io/eth/0x.png',
      },
    ],
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let s = '';
    req.on('data', (d) => (s += d));
    req.on('end', () => resolve(s));
    req.on('error', () => resolve(s));
  });
}

function json(res: ServerResponse, status: number, body: unknown) {
  send(res, status, JSON.stringify(body), 'application/json');
}

function send(res: ServerResponse, status: number, body: string, type: string) {
  res.writeHead(status, { 'Content-Type': type });
  res.end(body);
}
