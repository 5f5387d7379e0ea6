import { card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { formatUnits } from '@/lib/format';
import { ACTIVITY_MAX_ROWS, activityPath, type ActivityData } from '@/lib/server/activity-page';
import { monthLabel, toCoins, type MonthActivity } from '@/lib/view/activity';
import type { ErrorInfo } from '@/lib/view/error-copy';

/**
 * The Activity view: transactions per month and per category, and the native balance over time, each a
 * server-drawn SVG (no script) with the table it is drawn from below it, for screen readers and for
 * anyone who would rather read the numbers.
 */
export async function ActivityCharts({ data: promise, address }: { data: Promise<ActivityData | { error: ErrorInfo }>; address: string }) {
  const data = await promise;
  if ('error' in data) return <ErrorState error={data.error} resetHref={activityPath(address)} />;
  const { activity, chain } = data;
  if (activity.months.length === 0) {
    return (
      <div className="mt-4">
        <EmptyState title={`No activity on ${chain.label}`}>Lantern has read no transaction of this wallet on {chain.label}{data.indexing ? ' yet: its older history is still being read' : ''}.</EmptyState>
      </div>
    );
  }
  const totals = activity.categories.map((c) => ({ c, n: activity.months.reduce((s, m) => s + (m.byCategory[c] ?? 0), 0) }));
  return (
    <div className="mt-4 space-y-6" data-activity-rows={activity.rows}>
      <p className="text-sm text-ink-muted" data-activity-scope="">
        Drawn from the {activity.rows.toLocaleString('en-US')} transactions Lantern has read of this wallet on {chain.label}
        {data.capped ? `: the newest ${ACTIVITY_MAX_ROWS.toLocaleString('en-US')} only, older ones are left out` : ''}.
        {data.indexing && <span className="text-warning"> Older history is still being read; these pictures will grow.</span>}
      </p>
      <section aria-labelledby="per-month-heading" className={`${card} p-4`}>
        <h2 id="per-month-heading" className="text-base font-semibold">Transactions per month</h2>
        <Bars values={activity.months.map((m) => m.count)} labels={activity.months.map((m) => monthLabel(m.month))} />
        <table className="mt-3 w-full text-sm" data-activity-table="months">
          <caption className="sr-only">Transactions per month on {chain.label}, with their categories</caption>
          <thead className="bg-sunken text-left text-xs text-ink-muted">
            <tr><th scope="col" className="px-2 py-1">Month</th><th scope="col" className="px-2 py-1 text-right">Transactions</th><th scope="col" className="px-2 py-1">Categories</th></tr>
          </thead>
          <tbody>
            {activity.months.map((m) => (
              <tr key={m.month} className="border-t border-line" data-month={m.month} data-count={m.count}>
                <th scope="row" className="whitespace-nowrap px-2 py-1 text-left font-normal">{monthLabel(m.month)}</th>
                <td className="px-2 py-1 text-right tabular-nums">{m.count}</td>
                <td className="px-2 py-1 text-ink-muted">{categoryWords(m)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section aria-labelledby="per-category-heading" className={`${card} p-4`}>
        <h2 id="per-category-heading" className="text-base font-semibold">Transactions per category</h2>
        <table className="mt-3 w-full text-sm" data-activity-table="categories">
          <caption className="sr-only">Transactions per category on {chain.label}</caption>
          <thead className="bg-sunken text-left text-xs text-ink-muted">
            <tr><th scope="col" className="px-2 py-1">Category</th><th scope="col" className="px-2 py-1 text-right">Transactions</th><th scope="col" className="w-1/2 px-2 py-1"><span className="sr-only">Share</span></th></tr>
          </thead>
          <tbody>
            {totals.map(({ c, n }) => (
              <tr key={c} className="border-t border-line" data-category={c} data-count={n}>
                <th scope="row" className="px-2 py-1 text-left font-normal">{c}</th>
                <td className="px-2 py-1 text-right tabular-nums">{n}</td>
                <td className="px-2 py-1" aria-hidden="true">
                  <div className="h-2 rounded-sm bg-accent" style={{ width: `${Math.max(2, (n / totals[0].n) * 100)}%` }} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section aria-labelledby="balance-heading" className={`${card} p-4`}>
        <h2 id="balance-heading" className="text-base font-semibold">{chain.symbol} balance over time</h2>
        <p className="mt-1 text-xs text-ink-muted">
          Reconstructed from the transactions read: each month adds the {chain.symbol} the wallet received and takes away what it sent and the fees of the transactions it sent
          {activity.feesMissing > 0 ? ` (${activity.feesMissing} of them came without a fee, left out)` : ''}. It starts at zero before the first transaction read{data.capped || data.indexing ? ', so it is a change, not the balance, until the whole history is read' : ''}.
        </p>
        <Line values={activity.months.map((m) => toCoins(m.balance, chain.decimals))} labels={activity.months.map((m) => monthLabel(m.month))} />
        <table className="mt-3 w-full text-sm" data-activity-table="balance">
          <caption className="sr-only">{chain.symbol} balance at the end of each month, reconstructed from the history read</caption>
          <thead className="bg-sunken text-left text-xs text-ink-muted">
            <tr><th scope="col" className="px-2 py-1">Month</th><th scope="col" className="px-2 py-1 text-right">Change</th><th scope="col" className="px-2 py-1 text-right">Balance at end</th></tr>
          </thead>
          <tbody>
            {activity.months.map((m) => (
              <tr key={m.month} className="border-t border-line" data-month={m.month} data-balance={m.balance.toString()}>
                <th scope="row" className="whitespace-nowrap px-2 py-1 text-left font-normal">{monthLabel(m.month)}</th>
                <td className="break-all px-2 py-1 text-right tabular-nums">{signed(m.net, chain.decimals, true)}</td>
                <td className="break-all px-2 py-1 text-right tabular-nums">{signed(m.balance, chain.decimals, false)} {chain.symbol}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}

function categoryWords(m: MonthActivity): string {
  return Object.entries(m.byCategory).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([c, n]) => `${n} ${c}`).join(', ') || '—';
}

function signed(v: bigint, decimals: number, plus: boolean): string {
  const text = formatUnits((v < 0n ? -v : v).toString(), decimals, 6).text;
  return v < 0n ? `−${text}` : plus && v > 0n ? `+${text}` : text;
}

const W = 600;
const H = 160;
const PAD = { l: 8, r: 8, t: 18, b: 20 };

/** Vertical bars, one per month; the tallest is labelled with its count. Decorative: the table says it. */
function Bars({ values, labels }: { values: number[]; labels: string[] }) {
  const max = Math.max(1, ...values);
  const slot = (W - PAD.l - PAD.r) / values.length;
  const bw = Math.max(1, slot * 0.7);
  const y = (v: number) => PAD.t + (H - PAD.t - PAD.b) * (1 - v / max);
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className="mt-3 h-auto w-full" aria-hidden="true" focusable="false" data-chart="months">
      <line x1={PAD.l} x2={W - PAD.r} y1={H - PAD.b} y2={H - PAD.b} className="stroke-line" strokeWidth={1} />
      {values.map((v, i) => (
        <rect key={i} x={PAD.l + i * slot + (slot - bw) / 2} y={y(v)} width={bw} height={H - PAD.b - y(v)} className="fill-accent" rx={1} />
      ))}
      <text x={PAD.l} y={12} className="fill-ink-muted text-[11px]">max {max}</text>
      <Ends labels={labels} />
    </svg>
  );
}

/** The balance at each month's end as a line, with zero marked when it crosses it. Decorative: the table says it. */
function Line({ values, labels }: { values: number[]; labels: string[] }) {
  const lo = Math.min(0, ...values);
  const hi = Math.max(0, ...values);
  const span = hi - lo || 1;
  const x = (i: number) => (values.length === 1 ? W / 2 : PAD.l + ((W - PAD.l - PAD.r) * i) / (values.length - 1));
  const y = (v: number) => PAD.t + (H - PAD.t - PAD.b) * (1 - (v - lo) / span);
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className="mt-3 h-auto w-full" aria-hidden="true" focusable="false" data-chart="balance">
      <line x1={PAD.l} x2={W - PAD.r} y1={y(0)} y2={y(0)} className="stroke-line" strokeWidth={1} />
      <polyline points={points} fill="none" className="stroke-accent" strokeWidth={2} strokeLinejoin="round" />
      {values.map((v, i) => <circle key={i} cx={x(i)} cy={y(v)} r={2.5} className="fill-accent" />)}
      <Ends labels={labels} />
    </svg>
  );
}

function Ends({ labels }: { labels: string[] }) {
  return (
    <>
      <text x={PAD.l} y={H - 4} className="fill-ink-muted text-[11px]">{labels[0]}</text>
      {labels.length > 1 && <text x={W - PAD.r} y={H - 4} textAnchor="end" className="fill-ink-muted text-[11px]">{labels[labels.length - 1]}</text>}
    </>
  );
}
