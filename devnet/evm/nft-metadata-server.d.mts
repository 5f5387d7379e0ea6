// Types of devnet/evm/nft-metadata-server.mjs (the devnet's local IPFS gateway for Far Lanterns).
export function startNftMetadataServer(opts?: { port?: number; host?: string }): Promise<{ url: string; port: number; stop: () => Promise<void> }>;
