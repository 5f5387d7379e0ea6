import { PREVIEW_SIZE, previewCard } from '@/app/_og/preview-card';
import { blockPreview } from '@/app/_og/previews';

export const size = PREVIEW_SIZE;
export const contentType = 'image/png';
export const alt = 'Lantern: a Move ledger block by version';

export default async function Image({ params }: { params: Promise<{ network: string; version: string }> }) {
  const { network, version } = await params;
  const p = await blockPreview(network, version);
  return previewCard({ kicker: p.kicker, title: p.heading, lines: p.lines });
}
