/**
 * The kit's class strings: the surface every panel, row list and error sits on, and the controls on it.
 * One string each so both halves of the app (wallet and ledger) change together; extend them with
 * spacing or width at the call site: className={`${card} p-4`}.
 */
export const card = 'rounded-card border border-line bg-surface';

/** A quiet button or link drawn on the sunken surface (Retry, Search, Reset filters). */
export const quietButton = 'rounded-card border border-line bg-sunken px-3 py-1.5 text-sm font-medium text-ink hover:border-accent disabled:opacity-60';

/** The same button as tall as a `field` beside it (toolbars: Add filter, Apply range). */
export const quietButtonCompact = 'rounded-card border border-line bg-sunken px-3 py-1 text-sm font-medium text-ink hover:border-accent disabled:opacity-60';

/** A text input or select of a form or toolbar. */
export const field = 'rounded-card border border-line bg-canvas px-2 py-1 text-sm text-ink';
