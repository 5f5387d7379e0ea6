/** Shared pieces of the history and NFT toolbars. */

import { useEffect, useState } from 'react';
import { field } from '@/components/ui/card';
import { apiGet } from '@/lib/browser/api-client';

type ActiveChainsWire = { active_chains: { chain: string; last_transaction: unknown }[] };

/**
 * Names of the chains (among `chains`) where `address` has a transaction, read once from the published
 * active-chains operation; empty until it answers, and on failure (the marks are a hint, never a wall).
 */
function useActiveChains(address: string, chains: { name: string }[]): Set<string> {
  const [active, setActive] = useState<Set<string>>(() => new Set());
  const names = chains.map((c) => c.name).join(',');
  useEffect(() => {
    if (!names.includes(',')) return;
    const ctl = new AbortController();
    apiGet<ActiveChainsWire>(`/api/v2.2/wallets/${address}/chains`, { chains: names }, ctl.signal)
      .then((r) => setActive(new Set(r.active_chains.filter((c) => c.last_transaction).map((c) => c.chain))))
      .catch(() => {});
    return () => ctl.abort();
  }, [address, names]);
  return active;
}

/**
 * The chain picker, offering exactly the chains this server serves and marking those where the wallet
 * has activity. `null` means the URL names no chain. A pick is always written into the URL: a wallet with
 * no chain in its URL opens where it is active (lib/server/page.ts openOnActiveChain), so "no chain"
 * cannot stand for the default chain here.
 */
export function ChainSelect({
  address,
  chains,
  value,
  defaultChain,
  onChange,
}: {
  address: string;
  chains: { name: string; label: string }[];
  value: string | null;
  defaultChain: string;
  onChange: (chain: string) => void;
}) {
  const active = useActiveChains(address, chains);
  return (
    <label className="flex flex-col gap-1 text-xs text-ink-muted">
      Chain
      <select className={field} value={value ?? defaultChain} onChange={(e) => onChange(e.target.value)}>
        {chains.map((c) => (
          <option key={c.name} value={c.name}>
            {active.has(c.name) ? `${c.label} · active` : c.label}
          </option>
        ))}
      </select>
    </label>
  );
}
