import { cookies } from 'next/headers';
import { config } from '@/lib/config';
import { getSession } from '@/lib/auth/session';
import { connectOptions } from '@/lib/operations/sign-in';
import { AccountButton } from './account-button';

/**
 * The header's account element (server component): the signed-in address comes from the session
 * cookie in this server render, so no wallet code is needed to show it. Place it once in the header.
 */
export async function AccountMenu() {
  const c = config();
  const session = await getSession();
  // Only the wallet's own cookie goes to the client; the session cookie is httpOnly and stays here.
  const wallet = (await cookies()).get('lantern-wallet.store')?.value;
  // Which chains and whether the devnet account are offered is the sources' answer (asked here, on the server).
  const { devnet, chainIds } = await connectOptions();
  return (
    <AccountButton
      session={session ? { address: session.address, chainId: session.chainId } : null}
      options={{ devnet, chainIds, walletConnectProjectId: c.walletConnectProjectId }}
      walletCookie={wallet ? `lantern-wallet.store=${wallet}` : undefined}
    />
  );
}
