import { previewMetadata, walletPreview } from '@/app/_og/previews';
import type { Metadata } from 'next';
import Link from 'next/link';
import { createLoader, type inferParserType } from 'nuqs/server';
import { Suspense } from 'react';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { NftCard, type NftCardView } from '@/components/wallet/nft-card';
import { BalanceHeader, BalanceHeaderSkeleton } from '@/components/wallet/balance-header';
import { ExplorerProviders } from '@/components/wallet/explorer-providers';
import { NftToolbar } from '@/components/wallet/nft-toolbar';
import { NftGridSkeleton } from '@/components/wallet/skeletons';
import { SyncingBanner } from '@/components/wallet/syncing-banner';
import { zodToBadParameter } from '@/lib/api/handler';
import { config } from '@/lib/config';
import { nftQuerySchema, type NftItem } from '@/lib/interface/nfts';
import { getWalletNfts } from '@/lib/operations/wallet-nfts';
import { formatTokenId, truncateMiddle } from '@/lib/format';
import { displayImageSrc } from '@/lib/server/nft-image';
import { resolveNftMedia, safeText, type Gateways } from '@/lib/view/nft-media';
import { MAX_CONTRACT_FILTERS, NFT_PAGE_SIZE } from '@/lib/view/search-params';
import { nftParsers, serializeNftParams } from '@/lib/server/view-params';
import { chainForView, chainOptions, defaultChainName, toErrorInfo, walletFromParam } from '@/lib/server/page';
import { PageNumber, Pager, PagerLink } from '@/components/ui/pager';
import { LiveWallet } from '@/components/live/live-wallet';
import { liveStart } from '@/lib/operations/live';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ address: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };
type NftView = inferParserType<typeof nftParsers>;

const loadNftParams = createLoader(nftParsers);

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { address } = await params;
  return previewMetadata(walletPreview(address, 'nfts'));
}

export default async function WalletNftsPage({ params, searchParams }: Props) {
  const [{ address: param }, sp] = await Promise.all([params, searchParams]);
  const address = walletFromParam(param, { suffix: '/nfts', searchParams: sp });
  const view = loadNftParams(sp);
  const chainResult = chainForView(view.chain, 'nfts');
  if ('error' in chainResult) {
    return (
      <div className="mt-6">
        <ErrorState error={chainResult.error} resetHref={`/wallet/${address}/nfts`} />
      </div>
    );
  }
  return (
    <>
      {chainResult.chain.operations.includes('history') && (
        <Suspense key={chainResult.chain.name} fallback={<BalanceHeaderSkeleton />}>
          <BalanceHeader address={address} chain={chainResult.chain.name} />
        </Suspense>
      )}
      {chainResult.chain.operations.includes('history') && (
        <Suspense fallback={<div className="mt-3 h-6" />}>
          <NftLive address={address} chain={chainResult.chain.name} />
        </Suspense>
      )}
      <ExplorerProviders>
        <NftToolbar chains={chainOptions('nfts')} defaultChain={defaultChainName('nfts')} />
      </ExplorerProviders>
      <section aria-labelledby="nft-heading" className="mt-4">
        <h2 id="nft-heading" className="sr-only">
          NFTs held
        </h2>
        <Suspense key={JSON.stringify(view)} fallback={<NftGridSkeleton />}>
          <NftGrid address={address} view={view} chainLabel={chainResult.chain.label} />
        </Suspense>
      </section>
    </>
  );
}

/** The live bar: the NFTs (and the balance above) are read again when the wallet's transactions change. */
async function NftLive({ address, chain }: { address: string; chain: string }) {
  return <LiveWallet address={address} chain={chain} since={await liveStart(chain).catch(() => null)} view="nfts" />;
}

async function NftGrid({ address, view, chainLabel }: { address: string; view: NftView; chainLabel: string }) {
  const c = config();
  const gateways: Gateways = { ipfs: c.ipfsGateway, arweave: c.arweaveGateway };
  const base = `/wallet/${address}/nfts`;
  let page;
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
    return <ErrorState error={await toErrorInfo(e)} resetHref={base} />;
  }

  // Defence in depth: some sources ignore exclude_spam or token_addresses; the view still holds.
  const wanted = new Set(view.contract.map((a) => a.toLowerCase()));
  const items = page.result.filter((n) => (view.spam || n.possible_spam !== true) && (wanted.size === 0 || wanted.has(n.token_address.toLowerCase())));
  const cards = items.map((n, i) => toCard(n, i, view, base, gateways));
  const pageNumber = view.cursor.length + 1;
  const href = (patch: Partial<NftView>) => serializeNftParams(base, { ...view, ...patch });

  return (
    <>
      {page.status === 'SYNCING' && <SyncingBanner />}
      {cards.length === 0 ? (
        <EmptyState title={pageNumber > 1 ? 'No more NFTs' : wanted.size ? 'No NFTs from these contracts' : `No NFTs on ${chainLabel}`}>
            {wanted.size
              ? 'This wallet holds nothing from the contracts in the filter. '
              : page.status === 'SYNCING'
                ? 'Nothing found yet; the source is still reading this wallet. '
                : `This wallet holds no NFTs on ${chainLabel}${view.spam ? '' : ' (possible spam hidden)'}. `}
            {wanted.size ? <Link className="underline" href={href({ contract: [], cursor: [] })}>Clear the filter</Link> : !view.spam ? <Link className="underline" href={href({ spam: true, cursor: [] })}>Show possible spam</Link> : null}
        </EmptyState>
      ) : (
        <ul aria-label={`NFTs, page ${pageNumber}`} className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
          {cards.map((card) => (
            <NftCard key={card.key} nft={card} />
          ))}
        </ul>
      )}
      {(pageNumber > 1 || page.cursor) && (
        <Pager>
          {pageNumber > 1 && (
            <PagerLink href={href({ cursor: view.cursor.slice(0, -1) })} rel="prev">
              ← Previous
            </PagerLink>
          )}
          <PageNumber n={pageNumber} />
          {page.cursor && (
            <PagerLink href={href({ cursor: [...view.cursor, page.cursor] })} rel="next">
              Next →
            </PagerLink>
          )}
        </Pager>
      )}
    </>
  );
}

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
