import { inject } from 'vitest';
import { getAddress, serializeErc6492Signature, type Address, type Hex } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { loadManifest } from '../../devnet/evm/index.mjs';

/**
 * The chain the sign-in tests verify contract wallets on: the shared seeded devnet (started once by
 * the integration global setup). Its graceWallet is the EIP-1271 wallet (owner grace, dev account 8);
 * the factory's undeployed wallet for grace is the EIP-6492 case (devnet/evm/SCENARIO.md).
 */
export interface SignInChain {
  rpcUrl: string;
  chainId: number;
  /** anvil's default accounts 0..9. */
  accounts: PrivateKeyAccount[];
  /** Deployed EIP-1271 wallet and the key it accepts. */
  wallet1271: { address: Address; owner: PrivateKeyAccount };
  /** Not yet deployed wallet: sign with the owner, then wrap with `wrap6492`. */
  counterfactual: { address: Address; owner: PrivateKeyAccount; wrap6492: (signature: Hex) => Hex };
  stop: () => Promise<void>;
}

export const ANVIL_KEYS: Hex[] = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
  '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
  '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e',
  '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356',
  '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97',
  '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6',
];

export async function startSignInChain(): Promise<SignInChain> {
  const m = loadManifest();
  const accounts = ANVIL_KEYS.map((k) => privateKeyToAccount(k));
  const owner = accounts[m.eip1271.ownerIndex];
  if (getAddress(owner.address) !== getAddress(m.eip1271.owner)) throw new Error('devnet manifest: graceWallet owner is not dev account ' + m.eip1271.ownerIndex);
  const cf = m.eip1271.counterfactual;
  return {
    rpcUrl: inject('evmRpcUrl'),
    chainId: foundry.id,
    accounts,
    wallet1271: { address: getAddress(m.eip1271.wallet), owner },
    counterfactual: {
      address: getAddress(cf.address),
      owner,
      wrap6492: (signature) => serializeErc6492Signature({ address: cf.factory, data: cf.factoryData, signature }),
    },
    stop: async () => undefined, // the shared devnet belongs to the global setup
  };
}
