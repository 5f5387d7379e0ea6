import type { ReactNode } from 'react';
import { errorCopy, type ErrorCopy, type ErrorInfo } from '@/lib/view/error-copy';
import { ErrorPanel } from './error-panel';

/**
 * An error a page got from an operation, in the one vocabulary of lib/view/error-copy.ts: a title and
 * what to do next named from the error's code, the server's own message, a retry when one can help,
 * and the page's other ways on (`actions`, or a link resetting the filters). The ledger page passes
 * the ledger's wording (`copy`, from lib/view/ledger-error-copy.ts).
 */
export function ErrorState({
  error,
  copy = errorCopy(error),
  onRetry,
  resetHref,
  actions,
  'data-testid': testId,
}: {
  error: ErrorInfo;
  copy?: ErrorCopy;
  onRetry?: () => void;
  resetHref?: string;
  actions?: ReactNode;
  'data-testid'?: string;
}) {
  return (
    <ErrorPanel
      title={copy.title}
      message={error.message}
      retry={copy.retry && (onRetry ?? true)}
      actions={
        resetHref || actions ? (
          <>
            {resetHref && <a href={resetHref}>Reset filters</a>}
            {actions}
          </>
        ) : undefined
      }
      data-error-code={error.code}
      data-testid={testId}
    >
      <p>{copy.hint}</p>
    </ErrorPanel>
  );
}
