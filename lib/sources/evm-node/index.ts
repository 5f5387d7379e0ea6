import 'server-only';

export { nodeWalletHistory } from './history';
export { nodeWalletNfts } from './nfts';
export { nodeEvm } from './source';
