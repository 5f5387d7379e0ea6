/**
 * The transaction-level spam rule (`possible_spam` of a transaction, docs/evm-node.md). Pure and
 * dependency-free: the node source sets `possible_spam` by it, and the history page applies the same
 * rule to any source's per-transfer flags, so both read one meaning.
 */

export interface SpamMove {
  /** `native`: the chain's own coin (a top-level value or an internal transfer); anything else is a token. */
  kind: string;
  /** The token's own `possible_spam` (always false for the native coin). */
  spam: boolean;
}

/**
 * A transaction is possible spam when the wallet did not send it, it moved tokens, every token it moved
 * is possible spam, and it moved none of the chain's own coin (spam does not pay).
 */
export function isSpamTransaction(sentByWallet: boolean, moves: readonly SpamMove[]): boolean {
  if (sentByWallet) return false;
  const tokens = moves.filter((m) => m.kind !== 'native');
  return tokens.length > 0 && tokens.length === moves.length && tokens.every((m) => m.spam);
}
