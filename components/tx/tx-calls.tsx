import { card } from '@/components/ui/card';
import type { InternalTx } from '@/lib/interface/transaction';
import { formatUnits } from '@/lib/format';
import { callTree, type CallNode } from '@/lib/view/tx-page';
import type { ReadableName } from '@/lib/view/tx-readable';
import type { ChainView, SavedLabels } from '@/lib/view/tx-view';
import { TxParty } from './tx-party';

/** The transaction's internal calls: a tree where the source says which call made which, else a list in its order. */
export function TxCalls({ internal, methods, chain, labels }: { internal: InternalTx[] | null | undefined; methods: ReadableName[]; chain: ChainView; labels: SavedLabels }) {
  const calls = callTree(internal ?? []);
  // Each call's method by the call itself (the tree keeps the answer's objects).
  const named = new Map((internal ?? []).map((c, i) => [c, methods[i]]));
  return (
    <section aria-labelledby="calls-heading">
      <h2 id="calls-heading" className="text-base font-semibold">
        Internal calls
      </h2>
      {internal == null ? (
        <p className="mt-2 text-sm text-ink-muted">The source does not say.</p>
      ) : calls.nodes.length === 0 ? (
        <p className="mt-2 text-sm text-ink-muted">None.</p>
      ) : calls.nested ? (
        <div className={`mt-2 ${card} px-4 py-2.5`} data-testid="tx-calls" data-nested="true">
          <CallList nodes={calls.nodes} named={named} chain={chain} labels={labels} />
        </div>
      ) : (
        <div className="mt-2" data-testid="tx-calls" data-nested="false">
          <p className="text-sm text-ink-muted" data-testid="tx-calls-flat-note">
            The data provider lists these calls without saying which call made which, so they are shown as a list in its order, not as a
            tree.
          </p>
          <ol className={`mt-2 space-y-1.5 ${card} px-4 py-2.5 text-sm`}>
            {calls.nodes.map((n, i) => (
              <li key={i} data-call>
                <Call call={n.call} method={named.get(n.call)} chain={chain} labels={labels} />
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}

type Named = Map<InternalTx, ReadableName | undefined>;

function CallList({ nodes, named, chain, labels }: { nodes: CallNode[]; named: Named; chain: ChainView; labels: SavedLabels }) {
  return (
    <ul className="space-y-1.5 text-sm">
      {nodes.map((n, i) => (
        <li key={i} data-call data-call-depth={n.call.depth}>
          <Call call={n.call} method={named.get(n.call)} chain={chain} labels={labels} />
          {n.children.length > 0 && (
            <div className="ml-4 mt-1.5 border-l border-line pl-3">
              <CallList nodes={n.children} named={named} chain={chain} labels={labels} />
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}

function Call({ call, method, chain, labels }: { call: CallNode['call']; method: ReadableName | undefined; chain: ChainView; labels: SavedLabels }) {
  return (
    <>
      <span className="font-mono text-ink-muted">{call.type}</span> <TxParty address={call.from} chain={chain} labels={labels} /> →{' '}
      <TxParty address={call.to} chain={chain} labels={labels} />
      {method && (
        <>
          {' '}
          <span className="break-all font-mono" data-testid="call-method" data-method-state={method.state}>
            {method.text}
          </span>
        </>
      )}
      {call.value !== '0' ? ` ${formatUnits(call.value, chain.decimals).text} ${chain.symbol}` : ''}
      {call.reverted ? <span className="text-negative"> (reverted)</span> : null}
    </>
  );
}
