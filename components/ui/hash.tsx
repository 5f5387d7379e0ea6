import { CopyButton } from '@/components/ui/copy-button';
import { truncateMiddle } from '@/lib/format';

/**
 * A hash or address: middle-truncated (`keep` characters at the end, two more at the start for `0x`),
 * the full value on hover and in the copy button. `className` sizes the text (default text-sm).
 */
export function Hash({
  value,
  keep = 6,
  copy = true,
  className = 'text-sm',
  copyLabel,
}: {
  value: string;
  keep?: number;
  copy?: boolean;
  className?: string;
  copyLabel?: string;
}) {
  return (
    <span className="inline-flex items-center whitespace-nowrap">
      <span className={`font-mono ${className}`} title={value}>
        {truncateMiddle(value, keep + 2, keep)}
      </span>
      {copy && <CopyButton value={value} label={copyLabel} />}
    </span>
  );
}
