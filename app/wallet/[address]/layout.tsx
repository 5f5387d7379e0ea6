import { getAddress } from 'viem';
import { SaveWalletButton } from '@/components/auth/save-wallet-button';
import { WalletHeading } from '@/components/wallet/wallet-heading';
import { ADDRESS_RE } from '@/lib/format';
import { PageShell } from '@/components/layout/page-shell';
import { publicWalletLabel } from '@/lib/server/page';

/**
 * Frame shared by a wallet's history and NFT pages: it stays mounted when switching tabs. An invalid
 * address renders no heading here; the page itself answers 404 (or redirects a non-checksummed one).
 */
export default async function WalletLayout({ children, params }: { children: React.ReactNode; params: Promise<{ address: string }> }) {
  const { address } = await params;
  const valid = ADDRESS_RE.test(address) ? getAddress(address.toLowerCase()) : null;
  const label = valid ? await publicWalletLabel(valid) : null;
  return (
    <PageShell>
      {valid && (
        <>
          <WalletHeading address={valid} label={label} />
          <div className="mt-3">
            <SaveWalletButton address={valid} />
          </div>
        </>
      )}
      {children}
    </PageShell>
  );
}
