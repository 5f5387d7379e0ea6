import 'server-only';
import type { Metadata } from 'next';
import { getAddress } from 'viem';
import { ledgerNetworkSchema, ledgerVersionSchema, type LedgerNetworkName } from '@/lib/interface/ledger';
import { getBlockByVersion, getCachedBlockByVersion } from '@/lib/operations/ledger-block';
import { ADDRESS_RE, truncateMiddle } from '@/lib/format';
import { safeDecode } from '@/lib/server/page';

/**
 * What a shared link says about a page: built only from the URL and public chain data, never from a
 * session (a saved label is private) so every viewer of the preview sees the same thing.
 */
export interface Preview {
  title: string;
  description: string;
  kicker: string;
  heading: string;
  lines: string[];
}

const NETWORK_LABEL: Record<LedgerNetworkName, string> = { mainnet: 'Aptos mainnet', testnet: 'Aptos testnet', local: 'local ledger' };

export function walletPreview(raw: string, tab: 'history' | 'nfts' | 'tokens' | 'approvals' | 'activity'): Preview {
  const address = ADDRESS_RE.test(raw) ? getAddress(raw.toLowerCase()) : raw.slice(0, 42);
  const short = truncateMiddle(address);
  if (tab === 'activity') {
    return { title: `Activity of ${short}`, description: `Wallet ${address}'s transactions per month and category and its native balance over time, in Lantern.`, kicker: 'EVM wallet · Activity', heading: address, lines: ['Transactions per month, balance over time'] };
  }
  if (tab === 'tokens' || tab === 'approvals') {
    return tab === 'tokens'
      ? { title: `Tokens of ${short}`, description: `What wallet ${address} holds now: its native coin and every ERC-20, in Lantern.`, kicker: 'EVM wallet · Tokens', heading: address, lines: ['Native coin and ERC-20 balances'] }
      : { title: `Approvals of ${short}`, description: `Who may spend wallet ${address}'s tokens: its standing allowances and operators, in Lantern.`, kicker: 'EVM wallet · Approvals', heading: address, lines: ['Standing allowances and operators'] };
  }
  return tab === 'nfts'
    ? {
        title: `NFTs of ${short}`,
        description: `The NFTs wallet ${address} owns, with their collections and media, in Lantern.`,
        kicker: 'EVM wallet · NFTs',
        heading: address,
        lines: ['NFTs owned, by collection'],
      }
    : {
        title: `Wallet ${short}`,
        description: `Full transaction history of wallet ${address}: native, token, NFT and internal transfers, in Lantern.`,
        kicker: 'EVM wallet',
        heading: address,
        lines: ['Native, token, NFT and internal transfers'],
      };
}

/** A transaction's preview: its hash from the URL (the page itself reads the chain). */
export function txPreview(raw: string): Preview {
  const hash = raw.slice(0, 66);
  const short = truncateMiddle(hash);
  return {
    title: `Transaction ${short}`,
    description: `Transaction ${hash}: its status, value, fee, transfers, internal calls and logs, in Lantern.`,
    kicker: 'EVM transaction',
    heading: short,
    lines: [],
  };
}

/**
 * A block's preview names its height and version range when the block can be read; else the version
 * asked for. `cachedOnly`: only from the block cache, never waiting on the node.
 */
export async function blockPreview(rawNetwork: string, rawVersion: string, opts: { cachedOnly?: boolean } = {}): Promise<Preview> {
  const versionText = safeDecode(rawVersion).slice(0, 40);
  const network = ledgerNetworkSchema.safeParse(rawNetwork);
  const version = ledgerVersionSchema.safeParse(versionText);
  const where = network.success ? NETWORK_LABEL[network.data] : rawNetwork.slice(0, 20);
  const fallback: Preview = {
    title: `Version ${versionText} · ${where}`,
    description: `The block holding version ${versionText} of the ${where}, in Lantern.`,
    kicker: `Move ledger · ${where}`,
    heading: `Version ${versionText}`,
    lines: [],
  };
  if (!network.success || !version.success) return fallback;
  try {
    const b = opts.cachedOnly ? await getCachedBlockByVersion(network.data, version.data) : await getBlockByVersion(network.data, version.data, false);
    if (!b) return fallback;
    const count = BigInt(b.lastVersion) - BigInt(b.firstVersion) + 1n;
    const range = `versions ${b.firstVersion}–${b.lastVersion}`;
    return {
      title: `Block ${b.height} · ${range} · ${where}`,
      description: `Block ${b.height} of the ${where}: ${count.toLocaleString('en-US')} transactions (${range}), in Lantern.`,
      kicker: `Move ledger · ${where}`,
      heading: `Block ${b.height}`,
      lines: [range, `${count.toLocaleString('en-US')} transactions`],
    };
  } catch {
    return fallback; // pruned, unknown or a source down: the preview still names what was asked
  }
}

/**
 * Page metadata for a preview: the title (the root layout adds " · Lantern"), description, OpenGraph,
 * Twitter. `image: false` for pages without a generated preview image (a small summary card then).
 */
export function previewMetadata(p: Preview, { image = true }: { image?: boolean } = {}): Metadata {
  return {
    title: p.title,
    description: p.description,
    openGraph: { title: `${p.title} · Lantern`, description: p.description, siteName: 'Lantern', type: 'website' },
    twitter: { card: image ? 'summary_large_image' : 'summary', title: `${p.title} · Lantern`, description: p.description },
  };
}
