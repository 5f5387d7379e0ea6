'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { quietButtonCompact } from '@/components/ui/card';
import type { WalletOptions } from '@/components/auth/wagmi';
import { apiGet, ApiError } from '@/lib/browser/api-client';

type Step = { at: 'idle' } | { at: 'confirm' } | { at: 'wallet' } | { at: 'mining'; hash: string } | { at: 'mined'; hash: string } | { at: 'failed'; message: string };

/**
 * Revoke one approval: a confirmation saying exactly what will be sent, the transaction sent through the
 * connected wallet (wagmi, loaded on confirm), its progress, and the page read again once Lantern sees it
 * mined (the row then leaves the list).
 */
export function RevokeButton({
  owner,
  chainId,
  chainName,
  kind,
  token,
  tokenName,
  spender,
  wallet,
}: {
  owner: string;
  chainId: number;
  chainName: string;
  kind: 'erc20' | 'operator';
  token: string;
  tokenName: string;
  spender: string;
  wallet: WalletOptions;
}) {
  const router = useRouter();
  const [step, setStep] = useState<Step>({ at: 'idle' });
  const call = kind === 'erc20' ? `approve(${spender}, 0)` : `setApprovalForAll(${spender}, false)`;

  // Mined: read the page again, and again a few times while the source has not read the new block yet.
  useEffect(() => {
    if (step.at !== 'mined') return;
    router.refresh();
    const t = setInterval(() => router.refresh(), 2_000);
    const stop = setTimeout(() => clearInterval(t), 20_000);
    return () => {
      clearInterval(t);
      clearTimeout(stop);
    };
  }, [step, router]);

  async function send() {
    setStep({ at: 'wallet' });
    let hash: string;
    try {
      const { sendRevoke } = await import('@/components/auth/revoke-send');
      hash = await sendRevoke(wallet, { owner, chainId, kind, token, spender });
    } catch (e) {
      const m = (e as { shortMessage?: string; message?: string }).shortMessage ?? (e as Error).message ?? String(e);
      return setStep({ at: 'failed', message: m.split('\n')[0]!.slice(0, 200) });
    }
    setStep({ at: 'mining', hash });
    // Lantern answers the transaction once its node (or the hosted API) has it in a block.
    for (let i = 0; i < 120; i++) {
      try {
        await apiGet(`/api/v2.2/transaction/${hash}`, { chain: chainName });
        return setStep({ at: 'mined', hash });
      } catch (e) {
        if (!(e instanceof ApiError) || (e.status !== 404 && e.status !== 0)) return setStep({ at: 'failed', message: `Sent as ${hash}, but Lantern could not read it: ${(e as Error).message}` });
      }
      await new Promise((r) => setTimeout(r, 1_000));
    }
    setStep({ at: 'failed', message: `Sent as ${hash}; not mined after two minutes. Reload the page later.` });
  }

  const label = kind === 'erc20' ? `Revoke ${tokenName} allowance of ${spender}` : `Revoke operator ${spender} of ${tokenName}`;
  return (
    <div className="flex flex-col items-start gap-2 text-sm" data-revoke={step.at}>
      {step.at === 'idle' || step.at === 'failed' ? (
        <button type="button" className={quietButtonCompact} aria-label={label} onClick={() => setStep({ at: 'confirm' })}>
          Revoke
        </button>
      ) : null}
      {step.at === 'confirm' && (
        <div role="group" aria-label="Confirm revoke" className="max-w-xs">
          <p className="break-all">
            Your wallet will be asked to send <code className="font-mono">{call}</code> to <span className="font-mono">{token}</span>.
          </p>
          <div className="mt-2 flex gap-2">
            <button type="button" className={quietButtonCompact} onClick={() => void send()}>
              Send revoke
            </button>
            <button type="button" className="px-2 py-1 text-accent hover:underline" onClick={() => setStep({ at: 'idle' })}>
              Cancel
            </button>
          </div>
        </div>
      )}
      <p role="status" className="max-w-xs break-all text-xs text-ink-muted">
        {step.at === 'wallet' && 'Waiting for your wallet…'}
        {step.at === 'mining' && `Sent ${step.hash}; waiting for it to be mined…`}
        {step.at === 'mined' && 'Revoked. Updating the list…'}
      </p>
      {step.at === 'failed' && (
        <p role="alert" className="max-w-xs break-words text-xs text-negative">
          {step.message}
        </p>
      )}
    </div>
  );
}
