import type { Transfer, TxView } from './tx-view';

/**
 * How a history row words a described transaction. Apart from tx-view.ts (which turns the API's wire
 * shape into a TxView), so a page whose rows the server described downloads only this.
 */

/** `Sent`, `Received`, ... as the row's direction reads to a person. */
export const DIRECTION_LABEL: Record<TxView['direction'], string> = { in: 'Received', out: 'Sent', swap: 'Swapped', self: 'Self' };

/** One line per asset the wallet moved: `−0.05 ETH`, `+50 LNT`, `+1 × #7`. */
export function movementLine(m: Transfer): string {
  const sign = m.direction === 'in' ? '+' : m.direction === 'out' ? '−' : '';
  if (m.kind === 'erc721') return `${sign}NFT #${m.tokenId ?? '?'}`;
  if (m.kind === 'erc1155') return `${sign}${m.amount?.text ?? '1'} × #${m.tokenId ?? '?'}`;
  return `${sign}${m.amount?.text ?? '?'}${m.symbol ? ` ${m.symbol}` : ''}`;
}
