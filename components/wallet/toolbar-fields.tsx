/** Shared pieces of the history and NFT toolbars. */

import { field } from '@/components/ui/card';

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
      <select className={field} value={value ?? defaultChain} onChange={(e) => onChange(e.target.value === defaultChain ? null : e.target.value)}>
        {chains.map((c) => (
          <option key={c.name} value={c.name}>
            {c.label}
          </option>
        ))}
      </select>
    </label>
  );
}
