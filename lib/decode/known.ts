import 'server-only';
import { keccak256, parseAbi, type Abi, type Hex } from 'viem';
import devnet from './data/devnet-contracts.json';

/**
 * Contracts whose exact ABI Lantern ships: the devnet's compiled contracts, from the module
 * `npm run signatures` generates out of devnet/evm/artifacts (lib/ never reads devnet/ at run time).
 * A contract is recognised by its runtime code, on any chain and at any address: equal length, and
 * equal bytes once the 32-byte windows solc leaves for immutables (filled in at deployment) are masked.
 */

export interface KnownContract {
  name: string;
  abi: Abi;
}

interface Entry {
  name: string;
  abi: string[];
  codeLength: number;
  codeHash: string;
  immutables: number[];
}

const byLength = new Map<number, (Entry & { parsed?: Abi })[]>();
for (const c of (devnet as { contracts: Entry[] }).contracts) {
  const list = byLength.get(c.codeLength) ?? [];
  list.push({ ...c });
  byLength.set(c.codeLength, list);
}

/** The devnet contract this runtime code is, or null. */
export function knownContractByCode(code: Hex | string): KnownContract | null {
  const hex = code.toLowerCase().replace(/^0x/, '');
  const candidates = byLength.get(hex.length / 2);
  if (!candidates) return null;
  for (const c of candidates) {
    const bytes = Buffer.from(hex, 'hex');
    for (const at of c.immutables) bytes.fill(0, at, at + 32);
    if (keccak256(bytes) === c.codeHash) {
      c.parsed ??= parseAbi(c.abi);
      return { name: c.name, abi: c.parsed };
    }
  }
  return null;
}

/** The exact ABI of a devnet contract by name, or null. */
export function knownContractAbi(name: string): Abi | null {
  for (const list of byLength.values()) {
    const c = list.find((x) => x.name === name);
    if (c) return (c.parsed ??= parseAbi(c.abi));
  }
  return null;
}

/** Names of the devnet contracts Lantern knows (tests, docs). */
export function knownContractNames(): string[] {
  return [...byLength.values()].flat().map((c) => c.name);
}
