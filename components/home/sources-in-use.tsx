import { card } from '@/components/ui/card';
import type { SourceDescription, SourceKind } from '@/lib/operations/sources';

/** Which source answers each operation on this server, per chain, and in which mode. */
export function SourcesInUse({ inUse, sources }: { inUse: { kind: SourceKind; nodes: boolean }; sources: SourceDescription[] }) {
  return (
    <section id="sources" aria-labelledby="sources-title" className="mt-12">
      <h2 id="sources-title" className="text-lg font-semibold">
        Sources in use
      </h2>
      <p className="mt-1 text-sm text-ink-muted">
        Mode:{' '}
        {inUse.kind === 'hosted'
          ? inUse.nodes
            ? 'each chain with a node is read from it, every other chain from the hosted data API (DATA_API_KEY is set)'
            : 'hosted data API (DATA_API_KEY is set)'
          : 'Lantern’s own sources (no DATA_API_KEY)'}
      </p>
      {/* Focusable so the table can be scrolled from the keyboard where a phone is too narrow for it. */}
      <div className={`mt-4 overflow-x-auto ${card}`} tabIndex={0} role="region" aria-labelledby="sources-title">
        <table className="w-full text-left text-sm">
          <thead className="bg-sunken text-ink-muted">
            <tr>
              <th scope="col" className="px-4 py-2 font-medium">Operation</th>
              <th scope="col" className="px-4 py-2 font-medium">Chain</th>
              <th scope="col" className="px-4 py-2 font-medium">Source</th>
              <th scope="col" className="px-4 py-2 font-medium">Host</th>
            </tr>
          </thead>
          <tbody>
            {sources.map((s) => (
              <tr key={`${s.operation}:${s.chain}`} className="border-t border-line">
                <td className="px-4 py-2">{s.operation}</td>
                <td className="px-4 py-2">{s.chain}</td>
                <td className="px-4 py-2">{s.source}</td>
                <td className="break-all px-4 py-2 font-mono text-ink-muted">{s.host}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
