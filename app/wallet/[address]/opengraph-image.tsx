import { PREVIEW_SIZE, previewCard } from '@/app/_og/preview-card';
import { walletPreview } from '@/app/_og/previews';

export const size = PREVIEW_SIZE;
export const contentType = 'image/png';
export const alt = 'Lantern: an EVM wallet’s history and NFTs';

export default async function Image({ params }: { params: Promise<{ address: string }> }) {
  const p = walletPreview((await params).address, 'history');
  return previewCard({ kicker: p.kicker, title: p.heading, lines: p.lines });
}
