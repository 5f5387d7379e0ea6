import { createHash, createPublicKey, verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIG_BLOCK, HUGE_BLOCK, PRUNED_BELOW, signingMessage } from '@/devnet/ledger/chain.mjs';
import { startLedgerDevnet, type LedgerDevnet } from '@/devnet/ledger/index.mjs';
import type { LedgerBlock, UserTransaction } from '@/lib/interface/ledger';
import { aptosErrorSchema, ledgerInfoSchema, parseBlock } from '../support/ledger-schemas';

let devnet: LedgerDevnet;
let startMs = 0;
beforeAll(async () => {
  const t = performance.now();
  devnet = await startLedgerDevnet({ port: 0 });
  startMs = performance.now() - t;
});
afterAll(() => devnet?.stop());

const get = (path: string) => fetch(devnet.url + path);
async function block(path: string): Promise<LedgerBlock> {
  const res = await get(path);
  expect(res.status).toBe(200);
  return parseBlock(await res.json());
}

const ed25519Spki = (hex: string) =>
  createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(hex.slice(2), 'hex')]), format: 'der', type: 'spki' });
const verifies = (msg: Buffer, sig: { public_key: string; signature: string }) =>
  verify(null, msg, ed25519Spki(sig.public_key), Buffer.from(sig.signature.slice(2), 'hex'));

describe('ledger devnet', () => {
  it('starts fast and serves ledger info like a fullnode', async () => {
    expect(startMs).toBeLessThan(5000);
    const info = ledgerInfoSchema.parse(await (await get('')).json());
    expect(Number(info.block_height) + 1).toBeGreaterThanOrEqual(5000);
    expect(info.oldest_block_height).toBe(String(PRUNED_BELOW));
    expect(BigInt(info.oldest_ledger_version)).toBeGreaterThan(0n);
  });

  it('serves every block variant it makes in the schema shape, versions contiguous', async () => {
    const seen = new Set<string>();
    let prevLast: bigint | undefined;
    for (let h = 240; h <= 260; h++) {
      const b = await block(`/blocks/by_height/${h}?with_transactions=true`);
      if (prevLast !== undefined) expect(BigInt(b.firstVersion)).toBe(prevLast + 1n);
      prevLast = BigInt(b.lastVersion);
      b.transactions!.forEach((t) => seen.add(t.type));
      expect(b.transactions![0].type).toBe('block_metadata_transaction');
      expect(b.transactions!.at(-1)!.type).toBe('state_checkpoint_transaction');
    }
    expect(seen).toEqual(new Set(['block_metadata_transaction', 'validator_transaction', 'user_transaction', 'state_checkpoint_transaction']));
    const late = await block('/blocks/by_height/5990?with_transactions=true');
    expect(late.transactions!.at(-1)!.type).toBe('block_epilogue_transaction');
  });

  it('by_version answers the block that holds the version, with or without transactions', async () => {
    const h = await block('/blocks/by_height/1234');
    expect(h.transactions).toBeUndefined();
    const mid = (BigInt(h.firstVersion) + BigInt(h.lastVersion)) / 2n;
    const v = await block(`/blocks/by_version/${mid}?with_transactions=true`);
    expect(v.height).toBe('1234');
    expect(v.hash).toBe(h.hash);
    expect(v.transactions!.length).toBe(Number(BigInt(v.lastVersion) - BigInt(v.firstVersion)) + 1);
  });

  it('user transactions are signed with real ed25519 keys, sequence numbers count up per sender', async () => {
    const seq = new Map<string, bigint>();
    let users = 0;
    for (let h = 3000; h < 3040; h++) {
      const b = await block(`/blocks/by_height/${h}?with_transactions=true`);
      for (const tx of b.transactions!.filter((t): t is UserTransaction => t.type === 'user_transaction')) {
        users++;
        const sig = tx.signature as Record<string, unknown> & { type: string };
        const msg = signingMessage(tx);
        if (sig.type === 'ed25519_signature') {
          expect(verifies(msg, sig as never)).toBe(true);
          const addr = '0x' + createHash('sha3-256').update(Buffer.concat([Buffer.from((sig.public_key as string).slice(2), 'hex'), Buffer.from([0])])).digest('hex');
          expect(addr).toBe(tx.sender);
          expect(verifies(Buffer.from('tampered'), sig as never)).toBe(false);
        } else {
          expect(sig.type).toBe('fee_payer_signature');
          expect(verifies(msg, sig.sender as never)).toBe(true);
          expect(verifies(msg, sig.fee_payer_signer as never)).toBe(true);
        }
        const prev = seq.get(tx.sender);
        if (prev !== undefined) expect(BigInt(tx.sequence_number)).toBe(prev + 1n);
        seq.set(tx.sender, BigInt(tx.sequence_number));
      }
    }
    expect(users).toBeGreaterThan(100);
  });

  it('has a 2,000-transaction block (and a 10,000 one)', async () => {
    const big = await block(`/blocks/by_height/${BIG_BLOCK}?with_transactions=true`);
    expect(big.transactions!.length).toBeGreaterThanOrEqual(2000);
    expect(devnet.chain.lastVersionOf(HUGE_BLOCK) - devnet.chain.firstVersionOf(HUGE_BLOCK) + 1).toBe(10000);
  });

  it('answers fullnode errors: 404 beyond the head, 410 pruned, 400 malformed', async () => {
    const cases: [string, number, string][] = [
      [`/blocks/by_version/${devnet.chain.headVersion + 1}`, 404, 'version_not_found'],
      [`/blocks/by_height/${devnet.chain.headHeight + 1}`, 404, 'block_not_found'],
      ['/blocks/by_version/3', 410, 'version_pruned'],
      [`/blocks/by_height/${PRUNED_BELOW - 1}`, 410, 'block_pruned'],
      ['/blocks/by_version/12a', 400, 'web_framework_error'],
      ['/blocks/by_version/18446744073709551616', 400, 'web_framework_error'],
      ['/blocks/by_version/1000?with_transactions=maybe', 400, 'web_framework_error'],
    ];
    for (const [path, status, code] of cases) {
      const res = await get(path);
      expect(res.status, path).toBe(status);
      expect(aptosErrorSchema.parse(await res.json()).error_code).toBe(code);
    }
  });

  it('is deterministic and counts requests', async () => {
    const other = await startLedgerDevnet({ port: 0 });
    try {
      const a = await (await get('/blocks/by_height/777?with_transactions=true')).text();
      const before = other.requestCount();
      const b = await (await fetch(other.url + '/blocks/by_height/777?with_transactions=true')).text();
      expect(b).toBe(a);
      expect(other.requestCount()).toBe(before + 1);
    } finally {
      await other.stop();
    }
  });
});
