/**
 * The one JSON-RPC client of the tests: what they ask a node (the oracle) and what they send it. A node's
 * error is thrown as `method: message`.
 */

type Hex = `0x${string}`;

export interface Rpc {
  /** One call; `T` is what the caller knows the node answers (not checked). */
  call: <T = unknown>(method: string, params?: unknown[]) => Promise<T>;
  /** Many calls in batches of `size`; results in order; throws on the first error. */
  batch: (calls: [string, unknown[]][], size?: number) => Promise<unknown[]>;
}

/** A client for `url`, or for the URL `url()` gives at each call (a node started later, in a `beforeAll`). */
export function rpcClient(url: string | (() => string)): Rpc {
  let id = 1;
  const post = async (body: unknown) => {
    const res = await fetch(typeof url === 'string' ? url : url(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`RPC HTTP ${res.status}`);
    return res.json();
  };
  const fail = (method: string, e: { message?: string }) => new Error(`${method}: ${e.message ?? JSON.stringify(e)}`);
  return {
    async call<T>(method: string, params: unknown[] = []) {
      const r = await post({ jsonrpc: '2.0', id: id++, method, params });
      if (r.error) throw fail(method, r.error);
      return r.result as T;
    },
    async batch(calls, size = 200) {
      const out: unknown[] = [];
      for (let i = 0; i < calls.length; i += size) {
        const chunk = calls.slice(i, i + size).map(([method, params]) => ({ jsonrpc: '2.0', id: id++, method, params }));
        const byId = new Map(((await post(chunk)) as { id: number; result?: unknown; error?: { message?: string } }[]).map((r) => [r.id, r]));
        for (const req of chunk) {
          const r = byId.get(req.id);
          if (!r || r.error) throw fail(req.method, r?.error ?? { message: 'no answer in batch' });
          out.push(r.result);
        }
      }
      return out;
    },
  };
}

/** A transaction's receipt once the node has mined it (waits for that, up to 10 s). */
export async function receiptOf<R = { blockNumber: Hex; status: Hex; contractAddress: Hex | null }>(rpc: Rpc, hash: string): Promise<R> {
  for (let i = 0; i < 200; i++) {
    const r = await rpc.call<R | null>('eth_getTransactionReceipt', [hash]);
    if (r) return r;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`${hash} was not mined`);
}

/**
 * Sends `tx` from an account the node holds unlocked (`eth_sendTransaction`) and resolves once it is mined,
 * with its hash and receipt. `mustSucceed` throws if it reverted.
 */
export async function sendMined(rpc: Rpc, tx: { from: string; to?: string | null; value?: bigint; data?: Hex; gas?: Hex }, opts: { mustSucceed?: boolean } = {}) {
  const { to, value, ...rest } = tx;
  const hash = await rpc.call<Hex>('eth_sendTransaction', [{ ...rest, ...(to ? { to } : {}), ...(value === undefined ? {} : { value: `0x${value.toString(16)}` }) }]);
  const receipt = await receiptOf<{ status: Hex; blockNumber: Hex; contractAddress: Hex | null }>(rpc, hash);
  if (opts.mustSucceed && receipt.status !== '0x1') throw new Error(`transaction ${hash} failed: ${JSON.stringify(receipt)}`);
  return { hash, receipt };
}

/** The hashes of the transactions sent to `address`, as the node has them, newest first (lowercase). */
export async function txHashesTo(rpc: Rpc, address: string): Promise<string[]> {
  const head = Number(await rpc.call<Hex>('eth_blockNumber'));
  const out: string[] = [];
  for (let n = head; n >= 1; n--) {
    const b = await rpc.call<{ transactions: { hash: string; to: string | null }[] }>('eth_getBlockByNumber', [`0x${n.toString(16)}`, true]);
    for (const t of [...b.transactions].reverse()) if (t.to?.toLowerCase() === address.toLowerCase()) out.push(t.hash.toLowerCase());
  }
  return out;
}
