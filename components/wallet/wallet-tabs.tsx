'use client';

import { Link, useLinkStatus } from '@/components/ui/link';
import { usePathname, useSearchParams } from 'next/navigation';

/** History / Activity / Tokens / NFTs / Approvals, keeping the chosen chain when switching between them. */
export function WalletTabs({ address }: { address: string }) {
  const pathname = usePathname();
  const chain = useSearchParams().get('chain');
  const qs = chain ? `?chain=${encodeURIComponent(chain)}` : '';
  const sub = ['/activity', '/tokens', '/nfts', '/approvals'].find((s) => pathname.endsWith(s)) ?? '';
  const tabs = [
    { href: `/wallet/${address}`, label: 'History', active: sub === '' },
    { href: `/wallet/${address}/activity`, label: 'Activity', active: sub === '/activity' },
    { href: `/wallet/${address}/tokens`, label: 'Tokens', active: sub === '/tokens' },
    { href: `/wallet/${address}/nfts`, label: 'NFTs', active: sub === '/nfts' },
    { href: `/wallet/${address}/approvals`, label: 'Approvals', active: sub === '/approvals' },
  ];
  return (
    <nav aria-label="Wallet views" className="mt-4 flex gap-0 border-b border-line sm:gap-1">
      {tabs.map((t) => (
        <Link
          key={t.label}
          href={`${t.href}${qs}`}
          aria-current={t.active ? 'page' : undefined}
          className={`-mb-px border-b-2 px-2 py-2 text-sm sm:px-3 no-underline hover:no-underline ${t.active ? 'border-accent font-semibold text-ink' : 'border-transparent text-ink-muted hover:text-ink'}`}
        >
          {t.label}
          <Pending />
        </Link>
      ))}
    </nav>
  );
}

/** The clicked tab's own feedback, at once, while its page is on the way. */
function Pending() {
  const { pending } = useLinkStatus();
  return <span aria-hidden="true" className={`ml-1.5 inline-block h-1.5 w-1.5 rounded-full bg-accent align-middle motion-safe:animate-pulse ${pending ? '' : 'invisible'}`} data-pending={pending ? 'true' : undefined} />;
}
