import 'server-only';
import type { Hex } from 'viem';
import { knownContractByCode } from '@/lib/decode';
import { onChainChange } from './chain';
import { rpc } from './rpc';

/**
 * What an address is, for naming its calls and logs: whether it has code, whether that code is a devnet
 * contract Lantern ships the exact ABI of, and whether it is a proxy, resolved to its implementation:
 * EIP-1967 (implementation slot, or beacon slot then the beacon's implementation()), EIP-1167 minimal
 * clones, Safe proxies (singleton in slot 0, recognised by the masterCopy() selector in their code) and
 * EIP-7702 delegated accounts. Read at the node's head (so a call made before an upgrade is named by
 * today's implementation), kept per chain and address in process memory for ten minutes and forgotten
 * when the chain changes.
 */

export type ProxyKind = 'eip1967' | 'beacon' | 'eip1167' | 'safe' | 'eip7702';

export interface ContractFacts {
  address: string;
  hasCode: boolean;
  /** The devnet contract this code is (its exact ABI ships with Lantern), or null. */
  known: string | null;
  proxy: { kind: ProxyKind; implementation: string; known: string | null } | null;
}

/** The node of `chainId` (rpc.ts: one node per chain). */
export function nodeOf(chainId: number) {
  return { call: <T>(method: string, params: unknown[]) => rpc<T>(chainId, method, params) };
}

const IMPLEMENTATION_SLOT = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc';
const BEACON_SLOT = '0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50';
const CLONE = /^0x363d3d373d3d3d363d73([0-9a-f]{40})5af43d82803e903d91602b57fd5bf3$/;
const DELEGATED = /^0xef0100([0-9a-f]{40})$/;
/** masterCopy() in a Safe proxy's dispatch. */
const SAFE_SELECTOR = 'a619486e';
/** implementation() of an EIP-1967 beacon. */
const BEACON_IMPLEMENTATION = '0x5c60da1b';

const TTL_MS = 10 * 60_000;
const MAX = 20_000;
const memory = new Map<string, { facts: ContractFacts; at: number }>();
const reading = new Map<string, Promise<ContractFacts>>();
onChainChange((chainId) => {
  for (const k of memory.keys()) if (k.startsWith(`${chainId}:`)) memory.delete(k);
});

/** An address held in a 32-byte word (upper 12 bytes zero, not zero itself), or null. */
export function wordAddress(word: string | null | undefined): string | null {
  if (!word || !/^0x[0-9a-fA-F]{1,64}$/.test(word)) return null;
  const hex = word.slice(2).padStart(64, '0').toLowerCase();
  if (!/^0{24}/.test(hex) || /^0+$/.test(hex)) return null;
  return `0x${hex.slice(24)}`;
}

/** Proxy target that the code alone shows (a clone, a delegation), or null. */
export function codeTarget(code: string): { kind: ProxyKind; implementation: string } | null {
  const c = code.toLowerCase();
  const clone = CLONE.exec(c);
  if (clone) return { kind: 'eip1167', implementation: `0x${clone[1]}` };
  const delegated = DELEGATED.exec(c);
  if (delegated) return { kind: 'eip7702', implementation: `0x${delegated[1]}` };
  return null;
}

async function read(chainId: number, address: string): Promise<ContractFacts> {
  const n = nodeOf(chainId);
  const [code, implWord, beaconWord] = await Promise.all([
    n.call<Hex>('eth_getCode', [address, 'latest']),
    n.call<Hex>('eth_getStorageAt', [address, IMPLEMENTATION_SLOT, 'latest']),
    n.call<Hex>('eth_getStorageAt', [address, BEACON_SLOT, 'latest']),
  ]);
  const hasCode = !!code && code !== '0x';
  if (!hasCode) return { address, hasCode, known: null, proxy: null };
  const known = knownContractByCode(code)?.name ?? null;
  let target: { kind: ProxyKind; implementation: string } | null = codeTarget(code);
  if (!target && wordAddress(implWord)) target = { kind: 'eip1967', implementation: wordAddress(implWord)! };
  if (!target && wordAddress(beaconWord)) {
    const beacon = wordAddress(beaconWord)!;
    const impl = await n.call<Hex>('eth_call', [{ to: beacon, data: BEACON_IMPLEMENTATION }, 'latest']).catch(() => null);
    if (wordAddress(impl)) target = { kind: 'beacon', implementation: wordAddress(impl)! };
  }
  if (!target && code.toLowerCase().includes(SAFE_SELECTOR)) {
    const singleton = wordAddress(await n.call<Hex>('eth_getStorageAt', [address, '0x0', 'latest']));
    if (singleton) target = { kind: 'safe', implementation: singleton };
  }
  if (!target) return { address, hasCode, known, proxy: null };
  // Slot 0 or a stray slot may hold any address: a proxy's target is a contract.
  const implCode = await n.call<Hex>('eth_getCode', [target.implementation, 'latest']);
  if (!implCode || implCode === '0x') return { address, hasCode, known, proxy: null };
  return { address, hasCode, known, proxy: { ...target, known: knownContractByCode(implCode)?.name ?? null } };
}

/**
 * Facts of these addresses on this chain (lower case), read from the node where not known. An address
 * the node could not tell about (an error) is left out, so its calls are named from the table alone.
 */
export async function contractFacts(chainId: number, addresses: (string | null | undefined)[]): Promise<Map<string, ContractFacts>> {
  const out = new Map<string, ContractFacts>();
  const now = Date.now();
  const wanted = [...new Set(addresses.filter((a): a is string => !!a).map((a) => a.toLowerCase()))];
  await Promise.all(
    wanted.map(async (address) => {
      const key = `${chainId}:${address}`;
      const m = memory.get(key);
      if (m && now - m.at < TTL_MS) {
        out.set(address, m.facts);
        return;
      }
      let p = reading.get(key);
      if (!p) {
        p = read(chainId, address).finally(() => reading.delete(key));
        reading.set(key, p);
      }
      try {
        const facts = await p;
        if (memory.size >= MAX) memory.delete(memory.keys().next().value!);
        memory.set(key, { facts, at: Date.now() });
        out.set(address, facts);
      } catch {
        // named from the table alone this time
      }
    }),
  );
  return out;
}
