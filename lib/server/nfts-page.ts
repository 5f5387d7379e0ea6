import 'server-only';
import type { inferParserType } from 'nuqs/server';
import { config } from '@/lib/config';
import { formatTokenId, truncateMiddle } from '@/lib/format';
import { nftQuerySchema, type NftItem, type NftPage } from '@/lib/interface/nfts';
import { zodToBadParameter } from '@/lib/interface/zod-errors';
import { getWalletNfts } from '@/lib/operations/wallet-nfts';
import type { ErrorInfo } from '@/lib/view/error-copy';
import { resolveNftMedia, safeText, type Gateways, type NftCardView } from '@/lib/view/nft-media';
import { MAX_CONTRACT_FILTERS, NFT_PAGE_SIZE } from '@/lib/view/search-params';
import { displayImageSrc } from './nft-image';
import { toErrorInfo } from './page';
import { nftParsers, serializeNftParams } from './view-params';

export type NftView = inferParserType<typeof nftParsers>;

export interface NftGridData {
  status: NftPage['status'];
  cursor: NftPage['cursor'];
  cards: NftCardView[];
  /** How many contracts the view is filtered to (0: none). */
  filtered: number;
}

/** One page of a wallet's NFTs as cards, or the error to show in their place. */
export async function loadNftGrid(address: string, view: NftView): Promise<NftGridData | { error: ErrorInfo }> {
  const c = config();
  const gateways: Gateways = { ipfs: c.ipfsGateway, arweave: c.arweaveGateway };
  let page: NftPage;
  try {
    const parsed = nftQuerySchema.safeParse({
      chain: view.chain ?? undefined,
      format: view.format,
      limit: String(NFT_PAGE_SIZE),
      exclude_spam: view.spam ? 'false' : 'true',
      token_addresses: view.contract.slice(0, MAX_CONTRACT_FILTERS + 1),
      cursor: view.cursor.at(-1),
      normalizeMetadata: 'true',
      media_items: 'true',
    });
    if (!parsed.success) throw zodToBadParameter(parsed.error);
    page = await getWalletNfts(address, parsed.data);
  } catch (e) {
    return { error: await toErrorInfo(e) };
  }

  // Defence in depth: some sources ignore exclude_spam or token_addresses; the view still holds.
  const wanted = new Set(view.contract.map((a) => a.toLowerCase()));
  const items = page.result.filter((n) => (view.spam || n.possible_spam !== true) && (wanted.size === 0 || wanted.has(n.token_address.toLowerCase())));
  const base = nftsPath(address);
  return { status: page.status, cursor: page.cursor, cards: items.map((n, i) => toCard(n, i, view, base, gateways)), filtered: wanted.size };
}

/** The wallet's NFT tab, the base of every link of its views. */
export const nftsPath = (address: string) => `/wallet/${address}/nfts`;

function toCard(n: NftItem, i: number, view: NftView, base: string, gateways: Gateways): NftCardView {
  const media = resolveNftMedia(n, gateways);
  const tokenId = formatTokenId(n.token_id, view.format);
  return {
    key: `${n.token_address}-${n.token_id}-${i}`,
    contract: n.token_address,
    collection: safeText(n.name, 60) ?? truncateMiddle(n.token_address),
    tokenId,
    name: media.name,
    // At an origin the CSP admits, or through Lantern's raster-only media proxy (lib/server/nft-image.ts).
    image: displayImageSrc(media.image),
    description: media.description,
    externalLink: media.externalLink,
    amount: n.amount,
    standard: n.contract_type,
    spam: n.possible_spam === true,
    filterHref: serializeNftParams(base, { ...view, contract: [n.token_address], cursor: [] }),
  };
}
