import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readReference } from './reference';

/**
 * A ledger REST node that serves real recorded Aptos mainnet blocks (tests/fixtures/reference, see its
 * SOURCES.md): `GET /v1/blocks/by_version/{v}` answers the recorded block containing v, as a fullnode
 * does (the transactions only with `with_transactions=true`; the key is absent otherwise), with the
 * recorded response headers where the recording kept them. It holds nothing else of the chain: any
 * other version is a 503 saying it was not recorded, never an answer made up here.
 */
interface RecordedBlock {
  block_height: string;
  first_version: string;
  last_version: string;
  transactions?: unknown[];
  __headers?: Record<string, string>;
}

export const RECORDED_MAINNET_BLOCKS = ['aptos-block-by-version-86447894-mainnet-nodit.json', 'aptos-block-by-version-1000000-mainnet-jssdk-mock.json'];

export interface RecordedLedgerNode {
  /** The node's base URL, `/v1` included, as LEDGER_API_URL_* take it. */
  url: string;
  requests: string[];
  stop: () => Promise<void>;
}

export async function startRecordedLedgerNode(): Promise<RecordedLedgerNode> {
  const blocks = RECORDED_MAINNET_BLOCKS.map((f) => readReference<RecordedBlock>(f));
  const requests: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push(req.url ?? '');
    const u = new URL(req.url ?? '/', 'http://node');
    const m = /^\/v1\/blocks\/by_version\/(\d+)$/.exec(u.pathname);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (!m) return send(404, { message: `no route ${u.pathname}`, error_code: 'web_framework_error', vm_error_code: null });
    const v = BigInt(m[1]!);
    const block = blocks.find((b) => BigInt(b.first_version) <= v && v <= BigInt(b.last_version));
    if (!block) return send(503, { message: `version ${v} was not recorded`, error_code: 'internal_error', vm_error_code: null });
    const { __headers: recorded = {}, ...body } = block;
    const headers = Object.fromEntries(Object.entries(recorded).filter(([k]) => k.startsWith('x-aptos-')));
    if (u.searchParams.get('with_transactions') !== 'true') delete body.transactions;
    send(200, body, { 'x-aptos-chain-id': '1', ...headers });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}
