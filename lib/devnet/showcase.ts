import 'server-only';

/**
 * What the devnet home page offers a newcomer to click: the scenario's telling wallets and the ledger's
 * notable versions, each a page with data (the empty wallet, mallory, is not one of them). Addresses and counts come from
 * devnet/evm/scenario.json, versions from the simulated ledger (unit tests keep both in step; the app never
 * imports devnet/).
 */
export interface ShowcaseWallet {
  name: string;
  address: `0x${string}`;
  /** One line: what this wallet shows. */
  shows: string;
  /** The tab that shows it best. */
  tab: 'history' | 'nfts';
}

export const SHOWCASE_WALLETS: ShowcaseWallet[] = [
  { name: 'alice', address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', tab: 'history', shows: 'The busiest history: 398 transactions of swaps, token sends and NFT trades' },
  { name: 'bob', address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', tab: 'nfts', shows: 'The NFT collector: Lantern Lights and 1155 items, some traded and burned' },
  { name: 'curator', address: '0x09DB0a93B389bEF724429898f539AEB7ac2Dd55f', tab: 'nfts', shows: 'Far Lanterns: NFT metadata that lives off chain (ipfs://), fetched in the background' },
  { name: 'erin', address: '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc', tab: 'history', shows: 'The swapper: swaps both ways, and one reverted transfer' },
  { name: 'carol', address: '0x90F79bf6EB2c4f870365E785982E1f101E93b906', tab: 'history', shows: 'The spam-airdrop victim: an unsolicited token, marked possible spam' },
  { name: 'graceWallet', address: '0x6E18cA50fAcDD5ACA249C73dd6b4CA33a12cc3A0', tab: 'history', shows: 'The contract wallet: created through a factory, acts through execute()' },
  { name: 'frank', address: '0x976EA74026E726554dB657fA54763abd0C3a0aa9', tab: 'history', shows: 'Payroll through MultiSend: ETH paid out as internal transfers' },
  { name: 'oscar', address: '0xFABB0ac9d68B0B445fB7357272Ff202C5651694a', tab: 'history', shows: 'Only ever an internal-call recipient: turn on internal transactions' },
  { name: 'dave', address: '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65', tab: 'history', shows: 'A casual wallet with exactly 10 transactions' },
  { name: 'peggy', address: '0x1CBd3b2770909D4e10f157cABC84C7264073C9Ec', tab: 'history', shows: 'Never sends: 33 transactions found through their token and NFT transfer logs alone' },
  { name: 'holder', address: '0x02484cb50AAC86Eae85610D6f4Bf026f30f6627D', tab: 'history', shows: 'Odd tokens (rebasing, fee-on-transfer, bytes32, a reverting balanceOf) and approvals unlimited, partly used and revoked' },
];

/**
 * The second devnet (chain 31338, `devnet2`; devnet/evm/second.mjs): a wallet active on both chains and
 * one active only there, each linked on that chain.
 */
export const SHOWCASE_SECOND_CHAIN: ShowcaseWallet[] = [
  { name: 'nadia', address: '0x1BcB8e569EedAb4668e55145Cfeaf190902d3CF2', tab: 'history', shows: 'Active only on devnet 2: funded there, pays bob, trades D2D and a Second Light' },
  { name: 'alice', address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', tab: 'nfts', shows: 'Active on both devnets: on devnet 2 she funds herself and holds D2D and a Second Light' },
];

export interface ShowcaseVersion {
  version: number;
  label: string;
  shows: string;
}

/**
 * The simulated ledger's notable versions (devnet/ledger/chain.mjs: the big and the largest block, the first
 * block with an epilogue, the last pruned version, the head). Numbers here, not read from devnet/ (the app
 * never imports it); tests/unit/devnet/showcase.test.ts checks each against the ledger.
 */
const VERSIONS: ShowcaseVersion[] = [
  { version: 31813, label: 'Block 4200', shows: '2,002 transactions in one block' },
  { version: 43325, label: 'Block 5500', shows: '10,000 transactions: the largest block' },
  { version: 22762, label: 'Block 3000', shows: 'A newer block that ends with a block epilogue transaction' },
  { version: 764, label: 'Pruned', shows: 'A version older than the node keeps: what pruning looks like' },
  { version: 57006, label: 'Head', shows: 'The newest version of the local ledger' },
];

export function showcaseVersions(): ShowcaseVersion[] {
  return VERSIONS;
}
