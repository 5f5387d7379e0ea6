import { formatAge, formatUtc, type Instant } from '@/lib/format';

/**
 * A moment, the one way every page words it: its age (`5 min ago`) or its UTC time (`2026-03-02
 * 11:55:55 UTC`), with the other in the title; `both` shows the UTC time and the age beside it.
 * `utc` replaces the UTC wording where a source is more precise (the ledger's microseconds).
 */
export function Time({
  at,
  now,
  show,
  utc,
  className,
  'data-testid': testId,
}: {
  at: Instant;
  /** The render time, the same on the server and after hydration (lib/server/page.ts renderTime). */
  now: number;
  show: 'age' | 'utc' | 'both';
  utc?: string;
  className?: string;
  'data-testid'?: string;
}) {
  const exact = utc ?? formatUtc(at);
  const age = formatAge(at, now);
  const d = new Date(at);
  const iso = Number.isNaN(d.getTime()) ? undefined : d.toISOString();
  const time = (
    <time dateTime={iso} title={show === 'age' ? exact : age} className={className} data-testid={testId}>
      {show === 'age' ? age : exact}
    </time>
  );
  if (show !== 'both') return time;
  return (
    <>
      {time}
      <span className="ml-2 text-ink-muted">{age}</span>
    </>
  );
}
