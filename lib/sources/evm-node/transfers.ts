import 'server-only';
import type { Hex } from 'viem';

/**
 * Which internal frames move ETH. A frame's `value` is not always a transfer: a DELEGATECALL reports the
 * value its caller received (it runs in the caller's context and moves nothing), CALLCODE sends the value
 * to the caller itself, a STATICCALL cannot carry value, and nothing in a frame that reverted (or under
 * a parent that reverted) happened. Only CALL, CREATE, CREATE2 and SELFDESTRUCT frames that did not
 * revert move value, from `from` to `to` (for SELFDESTRUCT: the contract's balance to its beneficiary).
 */

export const VALUE_MOVING_FRAMES: ReadonlySet<string> = new Set(['CALL', 'CREATE', 'CREATE2', 'SELFDESTRUCT']);

export interface FrameLike {
  type: string;
  from: string;
  to: string | null;
  value: string;
  reverted: boolean;
}

/** True when this frame moved ETH from `from` to `to`. */
export function movesValue(f: FrameLike): boolean {
  return !f.reverted && f.to !== null && f.value !== '0' && VALUE_MOVING_FRAMES.has(f.type.toUpperCase());
}

/** One internal call, as callTracer reports it (and as fromParityTraces makes Parity's traces look). */
export interface CallFrame {
  type: string;
  from: string;
  to: string | null;
  value: string;
  gas: string | null;
  gasUsed: string | null;
  input: string;
  output: string | null;
  depth: number;
  /** This frame or one of its parents reverted: its value did not move. */
  reverted: boolean;
}

export interface ParityTrace {
  type: string;
  action: {
    callType?: string; creationMethod?: string; from?: string; to?: string; value?: Hex; gas?: Hex; input?: Hex; init?: Hex;
    // suicide (SELFDESTRUCT): the contract, its beneficiary and the balance it sent
    address?: string; refundAddress?: string; balance?: Hex;
  };
  result?: { gasUsed?: Hex; output?: Hex; address?: string } | null;
  error?: string;
  traceAddress: number[];
  transactionHash?: string;
  transactionPosition?: number;
  blockNumber?: number;
}

/**
 * Parity-style traces (trace_transaction; in execution order, parents first) as call frames shaped like
 * callTracer's: `suicide` becomes SELFDESTRUCT from the contract to its beneficiary with its balance, and
 * a frame is reverted when it or any ancestor failed. Block rewards (`reward`) are not frames.
 */
export function fromParityTraces(traces: ParityTrace[]): CallFrame[] {
  const failed: number[][] = [];
  const out: CallFrame[] = [];
  for (const t of traces) {
    if (t.traceAddress.length === 0 || !['call', 'create', 'suicide', 'selfdestruct'].includes(t.type)) continue;
    if (t.error) failed.push(t.traceAddress);
    const reverted = failed.some((f) => f.length <= t.traceAddress.length && f.every((x, i) => t.traceAddress[i] === x));
    const a = t.action;
    const lower = (x: string | null | undefined) => (x ? x.toLowerCase() : null);
    if (t.type === 'suicide' || t.type === 'selfdestruct') {
      out.push({
        type: 'SELFDESTRUCT', from: lower(a.address) ?? '', to: lower(a.refundAddress), value: BigInt(a.balance ?? '0x0').toString(),
        gas: null, gasUsed: null, input: '0x', output: null, depth: t.traceAddress.length, reverted,
      });
      continue;
    }
    const type = t.type === 'create' ? (a.creationMethod === 'create2' ? 'CREATE2' : 'CREATE') : (a.callType ?? 'call').toUpperCase();
    out.push({
      type, from: lower(a.from) ?? '', to: lower(a.to ?? t.result?.address), value: BigInt(a.value ?? '0x0').toString(),
      gas: a.gas ? BigInt(a.gas).toString() : null, gasUsed: t.result?.gasUsed ? BigInt(t.result.gasUsed).toString() : null,
      input: a.input ?? a.init ?? '0x', output: t.result?.output ?? null, depth: t.traceAddress.length, reverted,
    });
  }
  return out;
}
