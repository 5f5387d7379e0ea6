import Link from 'next/link';
import { truncateMiddle } from '@/lib/format';
import type { Party } from '@/lib/view/tx-view';
import { CopyButton } from '@/components/ui/copy-button';
import { Logo } from './logo';

/**
 * A counterparty as a person reads it: their own saved label first, then the source's label or entity
 * (with its logo), then its ENS name, else the address middle-truncated with a copy button. The full address is always
 * in the link's title and accessible name.
 */
export function PartyName({ party, className = '' }: { party: Party | null; className?: string }) {
  if (!party || !party.address) return <span className={`text-ink-muted ${className}`}>—</span>;
  if (party.special === 'mint' || party.special === 'burn') {
    return <span className={`text-ink-muted ${className}`}>{party.special === 'mint' ? 'Minted (zero address)' : 'Burned (zero address)'}</span>;
  }
  const short = truncateMiddle(party.address);
  return (
    <span className={`inline-flex min-w-0 max-w-full items-center gap-1 ${className}`} data-address={party.address.toLowerCase()}>
      {party.logo && party.labelSource !== 'saved' && <Logo src={party.logo} />}
      <Link
        href={`/wallet/${party.address}`}
        title={party.address}
        aria-label={`${party.label ? `${party.label}, ` : ''}${party.address}`}
        className={`min-w-0 truncate text-ink no-underline hover:underline ${party.label ? '' : 'font-mono text-sm'}`}
      >
        {party.label ?? short}
      </Link>
      {party.special === 'creation' && <span className="text-xs text-ink-muted">(created)</span>}
      {party.labelSource === 'saved' && <span className="text-xs text-ink-muted">(saved)</span>}
      <CopyButton value={party.address} label={`Copy address ${party.address}`} />
    </span>
  );
}
