import 'server-only';
import { redirect } from 'next/navigation';
import { servesLocalDevnet } from '@/lib/operations/chains';
import { resolveName } from '@/lib/operations/names';
import { classifySearch } from '@/lib/search/classify';

/**
 * Where a search goes: an address to its wallet, a version to its ledger block, an ENS name to the wallet
 * it resolves to (each a redirect); anything else comes back as what to tell the person.
 */
export async function searchTarget(q: string | string[] | undefined): Promise<{ input: string; problem: string }> {
  const input = (Array.isArray(q) ? q[0] : q ?? '').slice(0, 256);
  const target = classifySearch(input);
  switch (target.kind) {
    case 'address':
      redirect(`/wallet/${target.address}`);
    case 'version': {
      const network = (await servesLocalDevnet()) ? 'local' : 'mainnet';
      redirect(`/ledger/${network}/versions/${target.version}`);
    }
    case 'ens': {
      const resolved = await resolveName(target.name);
      if (resolved.ok) redirect(`/wallet/${resolved.address}`);
      return { input, problem: resolved.reason };
    }
    default:
      return {
        input,
        problem: input
          ? `“${input}” is not an EVM address (0x followed by 40 hex characters), an ENS name (like vitalik.eth) or a ledger version (digits).`
          : 'Type an EVM address, an ENS name or a ledger version.',
      };
  }
}
