import { CopyButton } from './copy-button';
import { middle } from './model';

/** A hash or address: middle-truncated, full value on hover and in the copy button. */
export function Hash({ value, keep = 6, copy = true }: { value: string; keep?: number; copy?: boolean }) {
  return (
    <span className="inline-flex items-center whitespace-nowrap">
      <span className="font-mono text-sm" title={value}>
        {middle(value, keep)}
      </span>
      {copy && <CopyButton value={value} />}
    </span>
  );
}
