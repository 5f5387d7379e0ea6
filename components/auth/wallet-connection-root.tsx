'use client';

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { cookieToInitialState, WagmiProvider, useConfig } from 'wagmi';
import { getConnection, watchConnection } from 'wagmi/actions';
import { signOutAction } from '@/lib/actions/auth';
import { ConnectDialog } from './connect-dialog';
import { walletConfig, type WalletOptions } from './wagmi';

export interface WalletConnectionRootProps {
  options: WalletOptions;
  walletCookie?: string;
  sessionAddress: string | null;
  dialogOpen: boolean;
  onClose: () => void;
  onSessionEnded: (why: string) => void;
}

/**
 * The wallet connection: everything that needs wagmi, behind one dynamic import (see account-button.tsx).
 * Not the explorer's providers (components/wallet/explorer-providers.tsx).
 */
export default function WalletConnectionRoot(props: WalletConnectionRootProps) {
  const config = walletConfig(props.options);
  const [initialState] = useState(() => cookieToInitialState(config, props.walletCookie));
  const [queryClient] = useState(() => new QueryClient());
  return (
    <WagmiProvider config={config} initialState={initialState} reconnectOnMount>
      <QueryClientProvider client={queryClient}>
        {props.sessionAddress && <SessionWatcher address={props.sessionAddress} onEnded={props.onSessionEnded} />}
        {props.dialogOpen && <ConnectDialog options={props.options} onClose={props.onClose} />}
      </QueryClientProvider>
    </WagmiProvider>
  );
}

/**
 * Ends the session when the wallet that signed in disconnects or switches to another account, and
 * asks the person to sign in again. A wallet that simply cannot reconnect after a reload (locked,
 * not installed in this browser) does not end the session: the session is the signed message, not
 * the connection.
 */
function SessionWatcher({ address, onEnded }: { address: string; onEnded: (why: string) => void }) {
  const config = useConfig();
  const ended = useRef(false);
  const onEndedRef = useRef(onEnded);
  useEffect(() => {
    onEndedRef.current = onEnded;
  }, [onEnded]);
  useEffect(() => {
    ended.current = false;
    const end = async (why: string) => {
      if (ended.current) return;
      ended.current = true;
      const out = await signOutAction();
      onEndedRef.current(out.ok ? why : `${why} ${out.error.message}`);
    };
    const check = (data: { status: string; address?: string }, prev?: { status: string }) => {
      if (data.status === 'connected' && data.address && data.address.toLowerCase() !== address.toLowerCase()) {
        void end('Your wallet switched to another account, so you were signed out. Sign in again.');
      } else if (prev?.status === 'connected' && data.status === 'disconnected') {
        void end('Your wallet disconnected, so you were signed out. Sign in again.');
      }
    };
    // WagmiProvider reconnects on mount, after EIP-6963 wallets have announced themselves.
    const stop = watchConnection(config, { onChange: (data, prev) => check(data, prev) });
    check(getConnection(config));
    return stop;
  }, [config, address]);
  return null;
}
