import type { ReactNode } from 'react';
import { card } from './card';
import { RetryButton } from './retry-button';

/**
 * Every error state of the app, wallet or ledger: what happened (title), the server's own words (message),
 * what it means and what to do next (children), a retry when one can help, and other ways on (actions).
 */
export function ErrorPanel({
  title,
  message,
  children,
  retry,
  actions,
  heading = 'h2',
  ...data
}: {
  title: string;
  message?: string;
  children?: ReactNode;
  /** true: retry the page's data; a function: the caller's own retry. */
  retry?: boolean | (() => void);
  actions?: ReactNode;
  heading?: 'h1' | 'h2';
  'data-testid'?: string;
  'data-error-code'?: string;
}) {
  const H = heading;
  return (
    <section role="alert" className={`${card} px-4 py-5 sm:px-6`} {...data}>
      <H className="text-lg font-semibold">{title}</H>
      {message && <p className="mt-2 break-words text-ink">{message}</p>}
      {children && <div className="mt-2 space-y-2 text-sm text-ink-muted">{children}</div>}
      {(retry || actions) && (
        <div className="mt-4 flex flex-wrap items-center gap-3 text-sm">
          {retry && <RetryButton onRetry={typeof retry === 'function' ? retry : undefined} />}
          {actions}
        </div>
      )}
    </section>
  );
}
