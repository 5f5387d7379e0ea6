/**
 * The devnets' public labels: who the scenario's people and contracts are (devnet/evm/scenario.json and
 * devnet/evm/second.mjs), so the devnet pages name alice, the pool and the tokens wherever they show an
 * address. Public labels, the same for everyone, below a person's own saved labels. Plain data here, so
 * app code never imports devnet/ (a lint rule forbids it); tests/unit/devnet/scenario-labels.test.ts keeps
 * it in step with the scenario.
 */

export interface DevnetPerson {
  name: string;
  /** The dev mnemonic's account index (anvil's default accounts are 0 to 9). */
  index: number;
  address: `0x${string}`;
}

export interface DevnetContract {
  /** The scenario's key for it. */
  key: string;
  label: string;
  address: `0x${string}`;
}

/** The people of the first devnet's scenario (chain 31337), in the scenario's order. */
export const DEVNET_PEOPLE: readonly DevnetPerson[] = [
  { name: 'deployer', index: 0, address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' },
  { name: 'alice', index: 1, address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
  { name: 'bob', index: 2, address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' },
  { name: 'carol', index: 3, address: '0x90F79bf6EB2c4f870365E785982E1f101E93b906' },
  { name: 'dave', index: 4, address: '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65' },
  { name: 'erin', index: 5, address: '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc' },
  { name: 'frank', index: 6, address: '0x976EA74026E726554dB657fA54763abd0C3a0aa9' },
  { name: 'spammer', index: 7, address: '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955' },
  { name: 'grace', index: 8, address: '0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f' },
  { name: 'heidi', index: 9, address: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720' },
  { name: 'ivan', index: 10, address: '0xBcd4042DE499D14e55001CcbB24a551F3b954096' },
  { name: 'judy', index: 11, address: '0x71bE63f3384f5fb98995898A86B02Fb2426c5788' },
  { name: 'oscar', index: 12, address: '0xFABB0ac9d68B0B445fB7357272Ff202C5651694a' },
  { name: 'peggy', index: 13, address: '0x1CBd3b2770909D4e10f157cABC84C7264073C9Ec' },
  { name: 'mallory', index: 14, address: '0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097' },
  { name: 'curator', index: 20, address: '0x09DB0a93B389bEF724429898f539AEB7ac2Dd55f' },
  { name: 'holder', index: 21, address: '0x02484cb50AAC86Eae85610D6f4Bf026f30f6627D' },
  { name: 'issuer', index: 22, address: '0x08135Da0A343E492FA2d4282F2AE34c6c5CC1BbE' },
  { name: 'merchant', index: 23, address: '0x5E661B79FE2D3F6cE70F5AAC07d8Cd9abb2743F1' },
];

/** nadia, the one person of the second devnet (chain 31338) who is not also of the first. */
const SECOND_ONLY: readonly DevnetPerson[] = [{ name: 'nadia', index: 30, address: '0x1BcB8e569EedAb4668e55145Cfeaf190902d3CF2' }];

const FIRST_CONTRACTS: readonly DevnetContract[] = [
  { key: 'usdc', label: 'USDC token', address: '0x5fbdb2315678afecb367f032d93f642f64180aa3' },
  { key: 'lnt', label: 'LNT token', address: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512' },
  { key: 'lights', label: 'Lantern Lights', address: '0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0' },
  { key: 'items', label: 'Lantern Items', address: '0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9' },
  { key: 'multisend', label: 'MultiSend', address: '0xdc64a140aa3e981100a9beca4e685f962f0cf6c9' },
  { key: 'factory', label: 'the wallet factory', address: '0x5fc8d32690cc91d4c39d9d3abcbd16989f875707' },
  { key: 'pool', label: 'the pool', address: '0x0165878a594ca255338adfa4d48449f69242eb8f' },
  { key: 'guard', label: 'the guard', address: '0xa513e6e4b8f2a923d98304ec87f64353c4d5c853' },
  { key: 'spam', label: 'the spam token', address: '0xef11d1c2aa48826d4c41e54ab82d1ff5ad8a64ca' },
  { key: 'farLanterns', label: 'Far Lanterns', address: '0x6d8da4b12d658a36909ec1c75f81e54b8db4ebf9' },
  { key: 'ivanGuard', label: 'ivan’s guard', address: '0xfbfbfddd6e35da57b7b0f9a2c10e34be70b3a4e9' },
  { key: 'graceWallet', label: 'grace’s wallet', address: '0x6e18ca50facdd5aca249c73dd6b4ca33a12cc3a0' },
  { key: 'ivanWallet1', label: 'ivan’s wallet 1', address: '0x4121ddf71b2674fe6e093497e6d487c627d02290' },
  { key: 'ivanWallet2', label: 'ivan’s wallet 2', address: '0x6bc2afae5f1cfe1d89cb905f2ca239ca822d9869' },
  { key: 'rlnt', label: 'rLNT token', address: '0xdc2938e3d4cf251d2c24a1a556ba71a78530def1' },
  { key: 'tax', label: 'TAX token', address: '0x39aa6ed9ad064424801e0745519c8f3589b846f2' },
  { key: 'olg', label: 'OLG token', address: '0xeb0016b153183fce6c043621c35ee20534c3605d' },
  { key: 'broken', label: 'BROKEN token', address: '0xaee67eb9fedee8d62111b408b0a3c283217000a9' },
  { key: 'keys', label: 'Lantern Keys', address: '0xfe926fef97fa7f98fe64d00662369a3a54d9f7fa' },
];

/** The second devnet's contracts: the deployer's first two there, so at the addresses of USDC and LNT on the first. */
const SECOND_CONTRACTS: readonly DevnetContract[] = [
  { key: 'd2d', label: 'D2D token', address: '0x5fbdb2315678afecb367f032d93f642f64180aa3' },
  { key: 'lights2', label: 'Second Lights', address: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512' },
];

function book(people: readonly DevnetPerson[], contracts: readonly DevnetContract[]): ReadonlyMap<string, string> {
  return new Map([...people.map((p) => [p.address.toLowerCase(), p.name] as const), ...contracts.map((c) => [c.address.toLowerCase(), c.label] as const)]);
}

/** Chain id -> lower-case address -> label. The people share their addresses across both devnets (one mnemonic). */
const BOOKS: ReadonlyMap<number, ReadonlyMap<string, string>> = new Map([
  [31337, book(DEVNET_PEOPLE, FIRST_CONTRACTS)],
  [31338, book([...DEVNET_PEOPLE, ...SECOND_ONLY], SECOND_CONTRACTS)],
]);

/** The public label of `address` on the devnet `chainId`, or null (any other chain, or an address of no one). */
export function devnetLabel(chainId: number, address: string | null | undefined): string | null {
  if (!address) return null;
  return BOOKS.get(chainId)?.get(address.toLowerCase()) ?? null;
}

/** Every public label of the devnet `chainId` (lower-case address -> label); empty for any other chain. */
export function devnetLabels(chainId: number): Record<string, string> {
  return Object.fromEntries(BOOKS.get(chainId) ?? []);
}
