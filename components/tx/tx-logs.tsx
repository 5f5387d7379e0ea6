import { card } from '@/components/ui/card';
import type { TxPageData } from '@/lib/server/tx-page';
import { rawText, shownArgs } from '@/lib/view/tx-receipt';
import { ArgsInline, RawDetails } from './tx-args';
import { TxParty } from './tx-party';

/** Each log as `Event(name: value, ...)`, its emitting contract named; the topics and data one click away. */
export function TxLogs({ tx, readable, chain, labels, tokens, erc20 }: TxPageData) {
  // A token the scenario or the person did not name is named by its symbol.
  const named = { ...Object.fromEntries([...tokens].flatMap(([a, f]) => (f.symbol ?? f.name ? [[a, (f.symbol ?? f.name)!]] : []))), ...labels };
  return (
    <section aria-labelledby="logs-heading">
      <h2 id="logs-heading" className="text-base font-semibold">
        Logs
      </h2>
      {readable.logs.length === 0 ? (
        <p className="mt-2 text-sm text-ink-muted">None.</p>
      ) : (
        <ol className={`mt-2 divide-y divide-line overflow-hidden ${card}`}>
          {readable.logs.map((l, i) => {
            const raw = tx.logs[i];
            const topics = [raw.topic0, raw.topic1, raw.topic2, raw.topic3].filter(Boolean).join(' ');
            const args = shownArgs(l.event.args, erc20.includes(l.address) ? tokens.get(l.address) : null);
            const known = l.event.state === 'named' || l.event.state === 'ambiguous';
            return (
              <li key={l.logIndex} className="px-4 py-2.5 text-sm" data-log={l.logIndex} data-decoded={known} data-event-trust={l.event.trust ?? undefined}>
                <p>
                  <span className="text-ink-muted">#{l.logIndex}</span> <TxParty address={l.address} chain={chain} labels={named} testId="log-contract" />
                </p>
                {l.event.state === 'named' ? (
                  <p className="mt-1 break-words font-mono" data-testid="log-decoded">
                    {l.event.name}({args && <ArgsInline args={args} chain={chain} labels={labels} />})
                  </p>
                ) : (
                  <p className={`mt-1 break-all font-mono ${known ? '' : 'text-ink-muted'}`} data-testid={known ? 'log-decoded' : 'log-unknown'}>
                    {known ? l.event.text : l.text}
                  </p>
                )}
                <RawDetails signature={l.event.signature} text={known ? rawText(l.event) : topics} testId={known ? 'log-raw-text' : 'log-raw'}>
                  {known && <p className="mt-1 break-all font-mono text-ink-muted">{topics}</p>}
                  <p className="mt-1 break-all font-mono text-ink-muted">{raw.data}</p>
                </RawDetails>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
