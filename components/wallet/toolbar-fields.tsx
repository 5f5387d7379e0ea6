/** Shared pieces of the history and NFT toolbars. */

export const fieldClass = 'rounded-card border border-line bg-canvas px-2 py-1 text-sm text-ink';

/** The chain picker; `null` means the server's default chain (kept out of the URL). */
export function ChainSelect({
  chains,
  value,
  defaultChain,
  onChange,
}: {
  chains: { name: string; label: string }[];
  value: string | null;
  defaultChain: string;
  onChange: (chain: string | null) => void;
}) {
  return (
    <label className="flex flex-col gap-1 text-xs text-ink-muted">
      Chain
      <select className={fieldClass} value={value ?? defaultChain} onChange={(e) => onChange(e.target.value === defaultChain ? null : e.target.value)}>
        {chains.map((c) => (
          <option key={c.name} value={c.name}>
            {c.label}
          </option>
        ))}
      </select>
    </label>
  );
}
