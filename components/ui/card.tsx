/**
 * The surface every panel, row list and error sits on. One string so both halves of the app (wallet and
 * ledger) change together; extend it with spacing at the call site: className={`${card} p-4`}.
 */
export const card = 'rounded-card border border-line bg-surface';

/** A quiet button or link drawn on the sunken surface (Retry, Reset filters, toolbar actions). */
export const quietButton = 'rounded-card border border-line bg-sunken px-3 py-1.5 text-sm font-medium hover:border-accent disabled:opacity-60';
