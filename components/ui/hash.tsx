import { CopyButton } from '@/components/ui/copy-button';
import { truncateMiddle } from '@/lib/format';

/** A hash or address: middle-truncated, full value on hover and in the copy button. */
export function Hash({ value, keep = 6, copy = true }: { value: string; keep?: number; copy?: boolean }) {
  return (
    <span className="inline-flex items-center whitespace-nowrap">
      <span className="font-mono text-sm" title={value}>
        {truncateMiddle(value, keep + 2, keep)}
      </span>
      {copy && <CopyButton value={value} />}
    </span>
  );
}
