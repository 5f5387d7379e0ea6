import { AddressLink } from '@/components/ui/address-link';
import type { ChainView, SavedLabels } from '@/lib/view/tx-view';

/** A party of this transaction: the kit's address link in full, with the labels known for it. */
export function TxParty({ address, chain, labels, testId, inText }: { address: string | null; chain: ChainView; labels: SavedLabels; testId?: string; inText?: boolean }) {
  // A link inside a line of text is underlined: colour alone does not tell it apart (axe link-in-text-block).
  return <AddressLink address={address} label={address ? labels[address.toLowerCase()] : null} chain={chain.name} form="full" data-testid={testId} className={inText ? 'underline' : ''} />;
}
