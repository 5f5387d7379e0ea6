import { Link } from '@/components/ui/link';
import { SearchBox } from '@/components/layout/search-box';
import { ErrorPanel } from '@/components/ui/error-panel';

/** A wallet URL whose address is not one: say what an address looks like, and offer search and home. */
export default function WalletNotFound() {
  return (
    <div className="max-w-prose">
      <ErrorPanel
        heading="h1"
        title="That is not a wallet address"
        actions={
          <>
            <span className="text-ink-muted">Search again, or</span>
            <Link href="/">go to the home page</Link>
          </>
        }
        data-testid="wallet-not-found"
      >
        <p>
          An EVM wallet address is <strong className="font-medium text-ink">0x followed by 40 hexadecimal characters</strong> (0–9 and a–f, in
          any letter case), for example:
        </p>
        <p className="break-all font-mono text-ink">0x70997970C51812dc3A010C7d01b50e0d17dc79C8</p>
        <p>Check for a missing or extra character, or search for an ENS name instead.</p>
        <div className="pt-2">
          <SearchBox />
        </div>
      </ErrorPanel>
    </div>
  );
}
