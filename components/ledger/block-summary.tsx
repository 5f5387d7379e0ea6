import { Link } from '@/components/ui/link';
import { Hash } from '@/components/ui/hash';
import { Time } from '@/components/ui/time';
import { formatMicros } from '@/lib/format';
import type { BlockView } from '@/lib/view/ledger-block';
import { card } from '@/components/ui/card';

/** The block at a glance, laid out like the head of a statement. */
export function BlockSummary({ block, network, query, now }: { block: BlockView; network: string; query: string; now: number }) {
  const ms = Number(BigInt(block.timestampUs) / 1000n);
  const prev = BigInt(block.firstVersion) - 1n;
  const next = BigInt(block.lastVersion) + 1n;
  return (
    <section aria-labelledby="block-heading" className={card}>
      <header className="flex flex-wrap items-baseline justify-between gap-2 border-b border-line px-5 py-3">
        <h2 id="block-heading" className="text-lg font-medium">
          Block <span className="font-mono">{block.height}</span>
        </h2>
        <nav aria-label="Neighbouring blocks" className="flex gap-4 text-sm">
          {prev >= 0n ? (
            <Link href={`/ledger/${network}/versions/${prev}${query}`} rel="prev" data-testid="prev-block">
              ← Previous block
            </Link>
          ) : (
            <span className="text-ink-muted">First block</span>
          )}
          <Link href={`/ledger/${network}/versions/${next}${query}`} rel="next" data-testid="next-block">
            Next block →
          </Link>
        </nav>
      </header>
      <dl className="grid grid-cols-1 gap-x-8 gap-y-3 px-5 py-4 text-sm sm:grid-cols-2 lg:grid-cols-3">
        <Item label="Height">
          <span className="font-mono" data-testid="block-height">
            {block.height}
          </span>
        </Item>
        <Item label="Hash">
          <Hash value={block.hash} keep={8} />
        </Item>
        <Item label="Time">
          <Time at={ms} now={now} show="both" utc={formatMicros(block.timestampUs)} className="font-mono" data-testid="block-time" />
        </Item>
        <Item label="Versions">
          <span className="font-mono" data-testid="block-versions">
            {block.firstVersion} – {block.lastVersion}
          </span>
        </Item>
        <Item label="Transactions">
          <span className="font-mono" data-testid="block-count">
            {block.count.toLocaleString('en-US')}
          </span>
        </Item>
        {block.epoch !== undefined && (
          <Item label="Epoch · round">
            <span className="font-mono">
              {block.epoch} · {block.round}
            </span>
          </Item>
        )}
        {block.proposer && (
          <Item label="Proposer">
            <Hash value={block.proposer} keep={8} />
          </Item>
        )}
      </dl>
    </section>
  );
}

function Item({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs uppercase tracking-wide text-ink-muted">{label}</dt>
      <dd className="mt-0.5">{children}</dd>
    </div>
  );
}
