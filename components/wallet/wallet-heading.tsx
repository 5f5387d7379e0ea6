import { Suspense } from 'react';
import { CopyButton } from '@/components/ui/copy-button';
import { WalletTabs } from './wallet-tabs';

/**
 * The wallet's full address (never truncated here: this is where people check it), copy, and tabs; above
 * it, the public label the devnet scenario gives it (alice, the pool), when it has one.
 */
export function WalletHeading({ address, label = null }: { address: string; label?: string | null }) {
  return (
    <div>
      <p className="text-xs font-medium uppercase tracking-wide text-ink-muted">Wallet</p>
      {label && (
        <p className="mt-1 text-xl font-semibold" data-testid="wallet-label">
          {label} <span className="text-xs font-normal text-ink-muted">(devnet scenario)</span>
        </p>
      )}
      <h1 className="mt-1 flex min-w-0 items-start gap-1 text-lg font-semibold">
        <span className="min-w-0 break-all font-mono" data-testid="wallet-address">
          {address}
        </span>
        <CopyButton value={address} label="Copy wallet address" />
      </h1>
      <Suspense fallback={<div className="mt-4 h-[2.3rem] border-b border-line" />}>
        <WalletTabs address={address} />
      </Suspense>
    </div>
  );
}
