import Link from 'next/link';

export default function WalletNotFound() {
  return (
    <div className="max-w-prose py-6">
      <h1 className="text-xl font-semibold">That is not a wallet address</h1>
      <p className="mt-3 text-ink-muted">
        An EVM wallet address is <strong className="font-medium text-ink">0x followed by 40 hexadecimal characters</strong> (0–9 and a–f, in
        any letter case), for example:
      </p>
      <p className="mt-2 break-all font-mono text-sm">0x70997970C51812dc3A010C7d01b50e0d17dc79C8</p>
      <p className="mt-3 text-ink-muted">
        Check for a missing or extra character, or search for an ENS name instead. <Link href="/" className="underline">Back to the start</Link>.
      </p>
    </div>
  );
}
