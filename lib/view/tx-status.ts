/**
 * A transaction's status in words, the same on the history row and the transaction page. A module of its
 * own: the row's details load lazily, so the wallet page's first-load JavaScript does not carry it.
 */
export function statusWord(failed: boolean): string {
  return failed ? 'Failed (reverted)' : 'Succeeded';
}
