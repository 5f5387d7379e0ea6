'use client';

import { useEffect, useRef, useState } from 'react';
import { BaseError, UserRejectedRequestError, type Address } from 'viem';
import { useConfig, useConnectors, type Connector } from 'wagmi';
import { connect, getConnection, signMessage, switchChain } from 'wagmi/actions';
import { requestChallengeAction, verifyChallengeAction } from '@/lib/actions/auth';
import type { ActionError } from '@/lib/auth/action-result';
import { DEFAULT_DEVNET_INDEX, DEVNET_CONNECTOR_ID, devnetAccountChoices, devnetAccounts, devnetProvider } from './devnet-connector';
import type { WalletOptions } from './wagmi';
import { card } from '@/components/ui/card';

type Step = 'idle' | 'connecting' | 'challenge' | 'signing' | 'verifying';

const STEP_TEXT: Record<Step, string> = {
  idle: '',
  connecting: 'Waiting for your wallet to connect…',
  challenge: 'Preparing the message to sign…',
  signing: 'Sign the message in your wallet. It costs nothing and sends no transaction.',
  verifying: 'Checking the signature…',
};

interface Problem {
  message: string;
  /** wrong network: offer to switch. */
  switchTo?: number;
}

/** What the person reads when something goes wrong: what happened, and what to do. */
function explain(e: ActionError): Problem {
  switch (e.code) {
    case 'wrong_chain':
      return { message: `Wrong network. ${e.message}`, switchTo: e.chainId };
    case 'challenge_expired':
      return { message: 'The sign-in message expired before it was signed (you have 2 minutes). Try again.' };
    case 'signature_mismatch':
      return { message: `The signature does not match the connected account. ${e.message}` };
    case 'contract_wallet_refused':
      return { message: `Your contract wallet refused the signature. ${e.message}` };
    case 'challenge_used':
      return { message: 'This sign-in message was already used. Try again for a new one.' };
    default:
      return { message: e.message };
  }
}

function isRejected(e: unknown): boolean {
  if (e instanceof BaseError) return !!e.walk((x) => x instanceof UserRejectedRequestError || (x as { code?: number }).code === 4001);
  return (e as { code?: number } | null)?.code === 4001;
}

const RELAY_WAIT_MS = 15_000;

class RelayUnreachable extends Error {}

/**
 * WalletConnect first needs its relay to make the pairing code the QR shows. Scanning it may take a
 * person a while, so only the wait for the code is bounded: without it, an unreachable relay would
 * leave "Waiting for your wallet" on screen forever.
 */
async function connectWithin(config: ReturnType<typeof useConfig>, connector: Connector) {
  if (connector.id !== 'walletConnect') return connect(config, { connector });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onMessage = ({ type }: { type: string }) => {
    if (type === 'display_uri') clearTimeout(timer);
  };
  connector.emitter.on('message', onMessage);
  try {
    return await Promise.race([
      connect(config, { connector }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new RelayUnreachable()), RELAY_WAIT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    connector.emitter.off('message', onMessage);
  }
}

function walletProblem(e: unknown, during: 'connect' | 'sign' | 'switch'): Problem {
  if (e instanceof RelayUnreachable) {
    return { message: 'WalletConnect’s relay could not be reached, so no QR code could be made. Check your connection and try again.' };
  }
  if (isRejected(e)) {
    return {
      message:
        during === 'connect'
          ? 'You declined the connection in your wallet.'
          : during === 'sign'
            ? 'You declined to sign the message in your wallet. Nothing was sent.'
            : 'You declined to switch network in your wallet.',
    };
  }
  const text = e instanceof BaseError ? e.shortMessage : e instanceof Error ? e.message : String(e);
  return { message: `Your wallet reported an error: ${text}` };
}

export function ConnectDialog({ options, onClose }: { options: WalletOptions; onClose: () => void }) {
  const config = useConfig();
  const connectors = useConnectors();
  const dialog = useRef<HTMLDialogElement>(null);
  const [step, setStep] = useState<Step>('idle');
  const [problem, setProblem] = useState<Problem | null>(null);
  const [devnetIndex, setDevnetIndex] = useState(DEFAULT_DEVNET_INDEX);
  const [last, setLast] = useState<Connector | null>(null);

  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);

  // EIP-6963 wallets each have their own connector; the generic `injected` one only when none announced.
  const announced = connectors.filter((c) => c.type === 'injected' && c.id !== 'injected' && c.id !== DEVNET_CONNECTOR_ID);
  const generic = connectors.find((c) => c.id === 'injected');
  const devnet = connectors.find((c) => c.id === DEVNET_CONNECTOR_ID);
  const walletConnect = connectors.find((c) => c.id === 'walletConnect');
  const hasLegacy = typeof window !== 'undefined' && 'ethereum' in window;
  const wallets = announced.length > 0 ? announced : generic && hasLegacy ? [generic] : [];

  async function signIn(connector: Connector) {
    setProblem(null);
    setLast(connector);
    const busy = step !== 'idle';
    if (busy) return;
    try {
      setStep('connecting');
      let account: { address: Address; chainId: number };
      const current = getConnection(config);
      if (current.status === 'connected' && current.connector?.uid === connector.uid && current.address) {
        account = { address: current.address, chainId: current.chainId };
      } else {
        if (connector.id === DEVNET_CONNECTOR_ID) devnetProvider().selectAccount(devnetIndex);
        try {
          const r = await connectWithin(config, connector);
          account = { address: r.accounts[0], chainId: r.chainId };
        } catch (e) {
          // wagmi may still be restoring this very connection (a reload just after signing out) and
          // refuses a second one: the wallet is connected, so sign in with the account it has.
          if ((e as Error)?.name !== 'ConnectorAlreadyConnectedError') return setProblem(walletProblem(e, 'connect'));
          const [address] = await connector.getAccounts();
          if (!address) return setProblem(walletProblem(e, 'connect'));
          account = { address, chainId: await connector.getChainId() };
        }
      }
      if (connector.id === DEVNET_CONNECTOR_ID && account.address !== devnetAccounts[devnetIndex]?.address) {
        devnetProvider().selectAccount(devnetIndex);
        account = { ...account, address: devnetAccounts[devnetIndex].address };
      }

      setStep('challenge');
      const challenge = await requestChallengeAction(account.address, account.chainId);
      if (!challenge.ok) return setProblem(explain(challenge.error));

      setStep('signing');
      let signature: `0x${string}`;
      try {
        signature = await signMessage(config, { connector, account: account.address, message: challenge.message });
      } catch (e) {
        return setProblem(walletProblem(e, 'sign'));
      }

      setStep('verifying');
      const verified = await verifyChallengeAction(challenge.message, signature);
      if (!verified.ok) return setProblem(explain(verified.error));
      // The action refreshed the page's server components: the header now shows the address and this
      // dialog unmounts.
    } catch (e) {
      setProblem({ message: `Signing in failed: ${e instanceof Error ? e.message : String(e)}` });
    } finally {
      setStep('idle');
    }
  }

  async function switchTo(chainId: number) {
    const connector = last;
    if (!connector) return;
    setProblem(null);
    try {
      await switchChain(config, { chainId, connector });
    } catch (e) {
      return setProblem(walletProblem(e, 'switch'));
    }
    await signIn(connector);
  }

  return (
    <dialog
      ref={dialog}
      aria-labelledby="sign-in-title"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      className={`m-auto w-[min(28rem,calc(100vw-2rem))] ${card} p-5 text-ink shadow-lg backdrop:bg-ink/40`}
    >
      <div className="flex items-start justify-between gap-4">
        <h2 id="sign-in-title" className="text-lg font-semibold">
          Sign in with your wallet
        </h2>
        <button type="button" onClick={onClose} className="text-sm text-ink-muted hover:text-ink" aria-label="Close">
          Close
        </button>
      </div>
      <p className="mt-1 text-sm text-ink-muted">You sign one readable message. It costs nothing and sends no transaction.</p>

      <ul className="mt-4 space-y-2" aria-label="Wallets">
        {wallets.map((c) => (
          <li key={c.uid}>
            <button
              type="button"
              disabled={step !== 'idle'}
              onClick={() => signIn(c)}
              className="flex w-full items-center gap-3 rounded-card border border-line px-3 py-2 text-left hover:border-accent disabled:opacity-60"
            >
              {c.icon ? (
                // eslint-disable-next-line @next/next/no-img-element -- wallet icons are data: URIs from EIP-6963
                <img src={c.icon} alt="" width={24} height={24} className="h-6 w-6" />
              ) : (
                <span aria-hidden="true" className="h-6 w-6 rounded bg-sunken" />
              )}
              <span className="font-medium">{c.name}</span>
            </button>
          </li>
        ))}
        {walletConnect && (
          <li>
            <button
              type="button"
              disabled={step !== 'idle'}
              onClick={() => signIn(walletConnect)}
              className="flex w-full items-center gap-3 rounded-card border border-line px-3 py-2 text-left hover:border-accent disabled:opacity-60"
            >
              <span aria-hidden="true" className="grid h-6 w-6 place-items-center rounded bg-accent-soft text-xs font-semibold text-accent">
                WC
              </span>
              <span>
                <span className="block font-medium">WalletConnect</span>
                <span className="block text-xs text-ink-muted">A wallet on your phone or another device, by QR code.</span>
              </span>
            </button>
          </li>
        )}
        {devnet && options.devnet && (
          <li className="rounded-card border border-line px-3 py-2">
            <div className="flex items-center gap-3">
              <label htmlFor="devnet-account" className="text-sm text-ink-muted">
                Test account
              </label>
              <select
                id="devnet-account"
                value={devnetIndex}
                onChange={(e) => setDevnetIndex(Number(e.target.value))}
                className="min-w-0 flex-1 rounded-card border border-line bg-canvas px-2 py-1 font-mono text-xs"
              >
                {devnetAccountChoices.map((a) => (
                  <option key={a.index} value={a.index}>
                    {a.name ?? `#${a.index}`} {a.address}
                  </option>
                ))}
              </select>
            </div>
            <button
              type="button"
              disabled={step !== 'idle'}
              onClick={() => signIn(devnet)}
              className="mt-2 w-full rounded-card border border-line px-3 py-2 text-left font-medium hover:border-accent disabled:opacity-60"
            >
              Devnet account
              <span className="block text-xs font-normal text-ink-muted">A local test account of the devnet, no wallet needed.</span>
            </button>
          </li>
        )}
      </ul>
      {wallets.length === 0 && !options.devnet && !walletConnect && (
        <p className="mt-3 text-sm text-ink-muted">No browser wallet was found. Install a wallet extension (any that supports EIP-6963) and reload.</p>
      )}

      <p role="status" className="mt-4 min-h-5 text-sm text-ink-muted">
        {STEP_TEXT[step]}
      </p>
      {problem && (
        <div role="alert" className="mt-2 rounded-card border border-negative/40 bg-negative/5 px-3 py-2 text-sm text-negative">
          {problem.message}
          {problem.switchTo !== undefined && (
            <button type="button" onClick={() => switchTo(problem.switchTo!)} className="ml-2 font-medium underline">
              Switch network
            </button>
          )}
        </div>
      )}
    </dialog>
  );
}
