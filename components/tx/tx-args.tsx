import type { ShownArg } from '@/lib/view/tx-receipt';
import type { ChainView, SavedLabels } from '@/lib/view/tx-view';
import { TxParty } from './tx-party';

type Ctx = { chain: ChainView; labels: SavedLabels };

/** One argument's value as a receipt shows it: an address named and linked, an amount in its token's units, else as decoded. */
export function ArgValue({ arg, chain, labels }: { arg: ShownArg } & Ctx) {
  if (arg.components) return <>({<ArgsInline args={arg.components} chain={chain} labels={labels} />})</>;
  if (arg.kind === 'address') return <TxParty address={arg.raw.toLowerCase()} chain={chain} labels={labels} inText />;
  if (arg.kind === 'amount') return <span title={`${arg.raw} (base units)`}>{arg.amount}</span>;
  return <span className="break-all">{arg.raw}</span>;
}

/** `name: value, name: value`, for a log's `Event(...)` line. */
export function ArgsInline({ args, chain, labels }: { args: ShownArg[] } & Ctx) {
  return (
    <>
      {args.map((a, i) => (
        <span key={i} data-arg={a.name} data-raw={a.raw}>
          {i > 0 ? ', ' : ''}
          {a.name}: <ArgValue arg={a} chain={chain} labels={labels} />
        </span>
      ))}
    </>
  );
}

/** A call's arguments, one a line (a method's can be long): `name (type): value`. */
export function ArgsList({ args, chain, labels }: { args: ShownArg[] } & Ctx) {
  return (
    <ul className="mt-1 space-y-0.5" data-testid="tx-args">
      {args.map((a, i) => (
        <li key={i} data-arg={a.name} data-raw={a.raw} className="min-w-0 break-words">
          <span className="text-ink-muted">
            {a.name || `#${i}`} <span className="font-mono text-xs">({a.type})</span>:
          </span>{' '}
          <span data-testid="tx-arg-value">
            <ArgValue arg={a} chain={chain} labels={labels} />
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The raw form, one click away: the signature and the values as the ABI decodes them. */
export function RawDetails({ signature, text, testId, children }: { signature: string | null; text: string; testId: string; children?: React.ReactNode }) {
  return (
    <details className="mt-1 text-xs">
      <summary className="cursor-pointer text-ink-muted">Raw values</summary>
      {signature && <p className="mt-1 break-all font-mono">{signature}</p>}
      <p className="mt-1 break-all font-mono" data-testid={testId}>
        {text}
      </p>
      {children}
    </details>
  );
}
