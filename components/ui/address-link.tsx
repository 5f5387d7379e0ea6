import { Link } from '@/components/ui/link';
import { truncateMiddle } from '@/lib/format';
import { CopyButton } from './copy-button';

/**
 * An address as every page links it: to its wallet page (on `chain` when given), named by its label
 * when there is one, the full address always in the title and the accessible name.
 *
 * - `short` (lists, history rows): the label or the middle-truncated address, a logo before it, notes
 *   after it (`saved`, `created`), and a copy button.
 * - `full` (one transaction's page): `label (address)` or the whole address, breaking where it must.
 *
 * The zero address as a party is a mint or a burn, not a wallet: `special` names it so and links nowhere.
 */
export function AddressLink({
  address,
  label,
  chain,
  form = 'short',
  special,
  logo,
  notes = [],
  className = '',
  'data-testid': testId,
}: {
  address: string | null;
  label?: string | null;
  chain?: string;
  form?: 'short' | 'full';
  special?: 'mint' | 'burn' | null;
  logo?: React.ReactNode;
  notes?: string[];
  className?: string;
  'data-testid'?: string;
}) {
  if (!address) return <span className={`text-ink-muted ${className}`}>{form === 'full' ? 'none' : '—'}</span>;
  if (special) return <span className={`text-ink-muted ${className}`}>{special === 'mint' ? 'Minted (zero address)' : 'Burned (zero address)'}</span>;
  const href = `/wallet/${address}${chain ? `?chain=${encodeURIComponent(chain)}` : ''}`;
  if (form === 'full') {
    return (
      <Link href={href} className={`min-w-0 break-all font-mono ${className}`} data-testid={testId} data-address={address.toLowerCase()}>
        {label ? `${label} (${address})` : address}
      </Link>
    );
  }
  return (
    <span className={`inline-flex min-w-0 max-w-full items-center gap-1 ${className}`} data-address={address.toLowerCase()} data-testid={testId}>
      {logo}
      <Link
        href={href}
        title={address}
        aria-label={`${label ? `${label}, ` : ''}${address}`}
        className={`min-w-0 truncate text-ink no-underline hover:underline ${label ? '' : 'font-mono text-sm'}`}
      >
        {label ?? truncateMiddle(address)}
      </Link>
      {notes.map((n) => (
        <span key={n} className="text-xs text-ink-muted">
          ({n})
        </span>
      ))}
      <CopyButton value={address} label={`Copy address ${address}`} />
    </span>
  );
}
