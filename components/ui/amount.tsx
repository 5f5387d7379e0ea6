/**
 * An amount as `formatUnits` put it into words: grouped and cut at 8 decimals, with the full value in
 * the title whenever the text is not exact.
 */
export function Amount({
  value,
  symbol,
  full = false,
  className,
  ...data
}: {
  value: { text: string; full: string; exact: boolean };
  symbol?: string | null;
  /** Show every digit (a transaction's details) instead of the cut text. */
  full?: boolean;
  className?: string;
  'data-testid'?: string;
  'data-wei'?: string;
}) {
  const unit = symbol ? ` ${symbol}` : '';
  return (
    <span className={className} title={full || value.exact ? undefined : `${value.full}${unit}`} {...data}>
      {full ? value.full : value.text}
      {symbol ? <> {symbol}</> : null}
    </span>
  );
}
