'use server';

import { headers } from 'next/headers';
import { isLanternError } from '@/lib/errors';
import { enforceRateLimit } from '@/lib/security/rate-limit';
import { ledgerNetworkSchema, ledgerVersionSchema } from '@/lib/interface/ledger';
import { getBlockByVersion } from '@/lib/operations/ledger-block';
import { toDetail, type TxDetail } from '@/lib/view/ledger-block';

/**
 * One transaction's payload, signature and events, for a row the reader opens. The block is in the
 * server's cache (the page just fetched it), so this costs no upstream call. Returns an error value
 * the table shows; never throws at the reader.
 */
export async function loadTransactionDetail(network: string, version: string): Promise<{ detail?: TxDetail; error?: string }> {
  const n = ledgerNetworkSchema.safeParse(network);
  const v = ledgerVersionSchema.safeParse(version);
  if (!n.success || !v.success) return { error: 'Not a ledger network and version.' };
  try {
    await enforceRateLimit(await headers(), 'action');
    const block = await getBlockByVersion(n.data, v.data, true);
    const tx = block.transactions?.find((t) => t.version === v.data);
    return tx ? { detail: toDetail(tx) } : { error: `Version ${v.data} is not in this block.` };
  } catch (e) {
    return { error: isLanternError(e) ? e.message : 'The transaction could not be loaded.' };
  }
}
