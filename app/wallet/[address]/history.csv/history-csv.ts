import 'server-only';
import { serializeTransaction, type HistoryQuery } from '@/lib/interface/history';
import { siteOrigin } from '@/lib/config';
import { methodFromInput } from '@/lib/operations/transaction';
import { getWalletHistory } from '@/lib/operations/wallet-history';
import { csvLine } from '@/lib/view/csv';
import { utcDate, formatUtc } from '@/lib/format';
import { requestChain } from '@/lib/operations/chains';
import { toChainView, toErrorInfo } from '@/lib/server/page';
import { DIRECTION_LABEL } from '@/lib/view/tx-row';
import { describeTransaction, type Transfer } from '@/lib/view/tx-view';

export const CSV_MAX_ROWS = 10_000;
const PAGE = 100;

export const CSV_COLUMNS = [
  'time_utc',
  'date_utc',
  'hash',
  'block',
  'status',
  'category',
  'summary',
  'direction',
  'counterparty',
  'counterparty_label',
  'sent',
  'received',
  'fee',
  'fee_currency',
  'method',
  'possible_spam',
  'transaction_url',
];

function amounts(list: Transfer[]): string {
  return list
    .map((m) =>
      m.kind === 'erc721'
        ? `NFT #${m.tokenId} (${m.tokenAddress})`
        : m.kind === 'erc1155'
          ? `${m.amount?.full ?? '1'} x #${m.tokenId} (${m.tokenAddress})`
          : `${m.amount?.full ?? '?'} ${m.symbol ?? m.tokenAddress ?? ''}`.trim(),
    )
    .join('; ');
}

/**
 * One CSV row per transaction, read page by page through getWalletHistory and written as it comes.
 * Stops at CSV_MAX_ROWS with a last line saying so; a failure half-way ends with a line naming it,
 * since the 200 status has already been sent.
 */
export async function historyCsvStream(address: string, query: HistoryQuery, opts: { includeSpam: boolean; maxRows?: number }) {
  const max = opts.maxRows ?? CSV_MAX_ROWS;
  // The chain rule before the first byte: a chain this server does not serve is the JSON 400, not a CSV.
  const chain = await requestChain(query.chain, 'history');
  const view = toChainView(chain);
  const encoder = new TextEncoder();
  let cursor: string | undefined = query.cursor;
  let rows = 0;
  let started = false;
  let done = false;

  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(csvLine(CSV_COLUMNS)));
        return;
      }
      if (done) return controller.close();
      let out = '';
      try {
        const page = await getWalletHistory(address, { ...query, chain: chain.name, cursor, limit: PAGE });
        for (const raw of page.result) {
          const tx = describeTransaction(serializeTransaction(raw), address, view);
          if (tx.spam && !opts.includeSpam) continue;
          if (rows >= max) {
            out += csvLine([`Export stopped at ${max.toLocaleString('en-US')} rows; this wallet has more. Narrow the date or block range to export the rest.`]);
            done = true;
            break;
          }
          rows++;
          // A source without a label for it: the shipped signature table names the call from its input.
          const method = tx.method && /^0x[0-9a-fA-F]{8}$/.test(tx.method) ? ((await methodFromInput((raw as { input?: string }).input)) ?? tx.method) : tx.method;
          out += csvLine([
            formatUtc(tx.timestamp).replace(' UTC', 'Z').replace(' ', 'T'),
            utcDate(tx.timestamp),
            tx.hash,
            tx.block,
            tx.failed ? 'failed' : 'success',
            tx.category,
            tx.summary,
            DIRECTION_LABEL[tx.direction].toLowerCase(),
            tx.counterparty?.address ?? '',
            tx.counterparty?.label ?? '',
            amounts(tx.movements.filter((m) => m.direction === 'out')),
            amounts(tx.movements.filter((m) => m.direction === 'in')),
            tx.feePaidByWallet && tx.fee ? tx.fee.full : '',
            tx.feePaidByWallet && tx.fee ? view.symbol : '',
            method,
            tx.spam ? 'true' : 'false',
            `${siteOrigin()}/tx/${tx.hash}?chain=${encodeURIComponent(view.name)}`,
          ]);
        }
        cursor = page.cursor ?? undefined;
        if (!cursor) done = true;
      } catch (e) {
        out += csvLine([`Export incomplete after ${rows} rows: ${(await toErrorInfo(e)).message}`]);
        done = true;
      }
      if (out) controller.enqueue(encoder.encode(out));
      if (done) controller.close();
    },
  });
  return { stream, chain: chain.name };
}
