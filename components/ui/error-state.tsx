import type { ReactNode } from 'react';
import { errorCopy, ledgerErrorKind, type ErrorInfo, type ErrorSubject } from '@/lib/view/error-copy';
import { ErrorPanel } from './error-panel';

/**
 * An error a page got from an operation, in the one vocabulary of lib/view/error-copy.ts: a title and
 * what to do next named from the error's code, the server's own message, a retry when one can help,
 * and the page's other ways on (`actions`, or a link resetting the filters).
 */
export function ErrorState({
  error,
  subject = 'wallet',
  onRetry,
  resetHref,
  actions,
}: {
  error: ErrorInfo;
  subject?: ErrorSubject;
  onRetry?: () => void;
  resetHref?: string;
  actions?: ReactNode;
}) {
  const copy = errorCopy(error, subject);
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
      data-testid={subject === 'ledger' ? `ledger-error-${ledgerErrorKind(error)}` : undefined}
    >
      <p>{copy.hint}</p>
    </ErrorPanel>
  );
}
