'use client';

import { Link } from '@/components/ui/link';
import { usePathname, useSearchParams } from 'next/navigation';

const HASH_RE = /^0x[0-9a-fA-F]{64}$/;

/**
 * What a /tx/{hash} 404 says about the URL it was given (a not-found page gets no params, so it reads
 * them from the address bar): the hash and chain asked for, and links to the same hash on the other chains.
 */
export function TxNotFoundDetails({ chains, defaultChain }: { chains: { name: string; label: string }[]; defaultChain: string }) {
  const path = usePathname() ?? '';
  const params = useSearchParams();
  let hash = path.replace(/^\/tx\//, '');
  try {
    hash = decodeURIComponent(hash);
  } catch {
    // keep it as it came
  }
  const chainName = params?.get('chain') || defaultChain;
  const chain = chains.find((c) => c.name === chainName);
  const others = chains.filter((c) => c.name !== chain?.name);
  if (!HASH_RE.test(hash)) {
    return (
      <p className="mt-3 text-ink-muted" data-testid="tx-not-found-reason" data-reason="malformed">
        <span className="break-all font-mono text-ink">{hash.slice(0, 200)}</span> is not a transaction hash: a hash is{' '}
        <strong className="font-medium text-ink">0x followed by 64 hexadecimal characters</strong>. Check for a missing or extra character.
      </p>
    );
  }
  return (
    <>
      <p className="mt-3 text-ink-muted" data-testid="tx-not-found-reason" data-reason="unknown">
        No transaction has the hash <span className="break-all font-mono text-ink">{hash}</span> on {chain?.label ?? chainName}.
      </p>
      <h2 className="mt-5 text-base font-semibold">What you can do</h2>
      <ul className="mt-2 list-disc space-y-1.5 pl-5 text-ink-muted">
        <li>Copy the hash again from where you found it: one changed character makes another hash.</li>
        <li>If it was sent moments ago, this chain may not have it yet: reload in a few seconds.</li>
        {others.length > 0 && (
          <li>
            It may have been sent on another chain:{' '}
            {others.map((c, i) => (
              <span key={c.name}>
                {i > 0 ? ', ' : ''}
                <Link href={`/tx/${hash}?chain=${encodeURIComponent(c.name)}`} className="underline" data-testid="tx-other-chain">
                  {c.label}
                </Link>
              </span>
            ))}
            .
          </li>
        )}
        <li>Or search for the sender’s or recipient’s address (the search box at the top): their history lists every transaction they took part in.</li>
      </ul>
    </>
  );
}
