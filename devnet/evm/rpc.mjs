// A minimal JSON-RPC client over fetch with batching; the seed sends hundreds of calls, and
// batches keep the cold seed fast.

let nextId = 1;

export class RpcError extends Error {
  constructor(method, error) {
    super(`${method}: ${error?.message ?? JSON.stringify(error)}`);
    this.code = error?.code;
    this.data = error?.data;
  }
}

/** @param {string} url */
export function rpcClient(url) {
  async function post(body) {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`RPC HTTP ${res.status} from ${url}`);
    return res.json();
  }
  return {
    url,
    /** @param {string} method @param {unknown[]} [params] */
    async call(method, params = []) {
      const r = await post({ jsonrpc: '2.0', id: nextId++, method, params });
      if (r.error) throw new RpcError(method, r.error);
      return r.result;
    },
    /**
     * The receipt of `hash` once it is mined: anvil's automine may mine a transaction just after it has
     * answered the send, so a receipt asked for at once can still be null.
     * @param {string} hash
     */
    async receipt(hash) {
      for (let i = 0; i < 500; i++) {
        const r = await this.call('eth_getTransactionReceipt', [hash]);
        if (r) return r;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`${hash}: not mined after 500 polls`);
    },
    /** Many calls in batches of `size`; results in order; throws on the first error. */
    async batch(calls, size = 200) {
      const results = [];
      for (let i = 0; i < calls.length; i += size) {
        const chunk = calls.slice(i, i + size).map(([method, params = []]) => ({
          jsonrpc: '2.0', id: nextId++, method, params,
        }));
        const out = await post(chunk);
        const byId = new Map(out.map((r) => [r.id, r]));
        for (const req of chunk) {
          const r = byId.get(req.id);
          if (!r) throw new Error(`${req.method}: no response in batch`);
          if (r.error) throw new RpcError(req.method, r.error);
          results.push(r.result);
        }
      }
      return results;
    },
  };
}
