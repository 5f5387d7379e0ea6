import 'server-only';
import { createPublicClient } from 'viem';
import { mainnet } from 'viem/chains';
import { normalize } from 'viem/ens';
import { cached } from '@/lib/cache';
import { config } from '@/lib/config';
import { ADDRESS_RE } from '@/lib/format';
import { breakerOpenInChain } from '@/lib/sources/breaker';
import { ensBreaker, rpcTransport } from '@/lib/sources/breakers';
import type { EnsResult, NameSource } from '@/lib/sources/types';

/** ENS names over the mainnet node at ENS_RPC_URL; without one, names do not resolve and say why. */
export const ensNames: NameSource = { resolve: resolveEnsName, reverse: reverseEnsNames };

/** ENS lives on Ethereum mainnet: names resolve only when ENS_RPC_URL points at a mainnet node. */
async function resolveEnsName(name: string): Promise<EnsResult> {
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
    const client = createPublicClient({ chain: mainnet, transport: rpcTransport(url, ensBreaker(url)) });
    const address = await client.getEnsAddress({ name: normalized });
    return address ? { ok: true, address } : { ok: false, reason: `${name} does not resolve to an address.` };
  } catch (e) {
    const open = breakerOpenInChain(e);
    if (open) return { ok: false, reason: `${open.message} Paste the 0x address of ${name} instead.` };
    return { ok: false, reason: `The ENS node did not answer while resolving ${name}; try again.` };
  }
}

const REVERSE_WAIT_MS = 1500;
let reverseDownUntil = 0;

/**
 * Primary ENS names of addresses (lower-case address -> name), for naming counterparties. A page never
 * waits more than 1.5 s for them: what is not resolved by then is shown as an address, and the lookups
 * that finish later are cached (an hour, names and non-names alike) for the next view. A failing ENS
 * node is left alone for a minute.
 */
async function reverseEnsNames(addresses: string[]): Promise<Record<string, string>> {
  const url = config().ensRpcUrl;
  const unique = [...new Set(addresses.map((a) => a.toLowerCase()).filter((a) => ADDRESS_RE.test(a)))].slice(0, 100);
  if (!url || unique.length === 0 || Date.now() < reverseDownUntil) return {};
  const client = createPublicClient({ chain: mainnet, transport: rpcTransport(url, ensBreaker(url)), batch: { multicall: true } });
  const names: Record<string, string> = {};
  const lookups = unique.map((a) =>
    cached(`ens:reverse:${a}`, { ttl: 3600 }, () => client.getEnsName({ address: a as `0x${string}` }))
      .then((name) => {
        if (name) names[a] = name;
      })
      .catch(() => {
        reverseDownUntil = Date.now() + 60_000;
      }),
  );
  await Promise.race([Promise.all(lookups), new Promise((r) => setTimeout(r, REVERSE_WAIT_MS))]);
  return { ...names };
}

