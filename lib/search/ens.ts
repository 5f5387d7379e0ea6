import 'server-only';
import { createPublicClient, http } from 'viem';
import { mainnet } from 'viem/chains';
import { normalize } from 'viem/ens';
import { config } from '@/lib/config';

export type EnsResult = { ok: true; address: string } | { ok: false; reason: string };

/** ENS lives on Ethereum mainnet: names resolve only when ENS_RPC_URL points at a mainnet node. */
export async function resolveEnsName(name: string): Promise<EnsResult> {
  const url = config().ensRpcUrl;
  if (!url) {
    return { ok: false, reason: `ENS names cannot be resolved on this server (ENS_RPC_URL is not set). Paste the 0x address of ${name} instead.` };
  }
  let normalized: string;
  try {
    normalized = normalize(name);
  } catch {
    return { ok: false, reason: `“${name}” is not a valid ENS name.` };
  }
  try {
    const client = createPublicClient({ chain: mainnet, transport: http(url, { timeout: 5000, retryCount: 1 }) });
    const address = await client.getEnsAddress({ name: normalized });
    return address ? { ok: true, address } : { ok: false, reason: `${name} does not resolve to an address.` };
  } catch {
    return { ok: false, reason: `The ENS node did not answer while resolving ${name}; try again.` };
  }
}
