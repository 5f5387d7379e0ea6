import { getAddress } from 'viem';
import { SaveWalletButton } from '@/components/auth/save-wallet-button';
import { WalletHeading } from '@/components/wallet/wallet-heading';
import { ExplorerProviders } from '@/components/wallet/explorer-providers';
import { ADDRESS_RE } from '@/lib/format';

/**
 * Frame shared by a wallet's history and NFT pages: it stays mounted when switching tabs. An invalid
 * address renders no heading here; the page itself answers 404 (or redirects a non-checksummed one).
 */
export default async function WalletLayout({ children, params }: { children: React.ReactNode; params: Promise<{ address: string }> }) {
  const { address } = await params;
  const valid = ADDRESS_RE.test(address) ? getAddress(address.toLowerCase()) : null;
  return (
    <>
      <ExplorerProviders>
        <main className="mx-auto max-w-page px-4 py-6">
          {valid && (
            <>
              <WalletHeading address={valid} />
              <div className="mt-3">
                <SaveWalletButton address={valid} />
              </div>
            </>
          )}
          {children}
        </main>
      </ExplorerProviders>
    </>
  );
}
