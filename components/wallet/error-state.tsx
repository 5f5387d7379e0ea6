import { ErrorPanel } from '@/components/ui/error-panel';
import { errorCopy, type ErrorInfo } from '@/lib/view/error-copy';

/** A wallet or transaction error, named from the published API's error code, with a retry when one can help. */
export function ErrorState({ error, onRetry, resetHref }: { error: ErrorInfo; onRetry?: () => void; resetHref?: string }) {
  const copy = errorCopy(error.code, error.status);
  return (
    <ErrorPanel
      title={copy.title}
      message={error.message}
      retry={copy.retry && (onRetry ?? true)}
      actions={resetHref && <a href={resetHref}>Reset filters</a>}
      data-error-code={error.code}
    >
      <p>{copy.hint}</p>
    </ErrorPanel>
  );
}
