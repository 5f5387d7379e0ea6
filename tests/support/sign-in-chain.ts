import { inject } from 'vitest';
import { getAddress, serializeErc6492Signature, type Address, type Hex } from 'viem';
import { mnemonicToAccount, type HDAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { MNEMONIC, loadManifest } from '../../devnet/evm/index.mjs';

/**
 * The chain the sign-in tests verify contract wallets on: the shared seeded devnet (started once by
 * the integration global setup). Its graceWallet is the EIP-1271 wallet (owner grace, dev account 8);
 * the factory's undeployed wallet for grace is the EIP-6492 case (devnet/evm/SCENARIO.md).
 */
export interface SignInChain {
  rpcUrl: string;
  chainId: number;
  /** The devnet's accounts 0..9 (anvil's default mnemonic). */
  accounts: HDAccount[];
  /** Deployed EIP-1271 wallet and the key it accepts. */
  wallet1271: { address: Address; owner: HDAccount };
  /** Not yet deployed wallet: sign with the owner, then wrap with `wrap6492`. */
  counterfactual: { address: Address; owner: HDAccount; wrap6492: (signature: Hex) => Hex };
  stop: () => Promise<void>;
}


export async function startSignInChain(): Promise<SignInChain> {
  const m = loadManifest();
  const accounts = Array.from({ length: 10 }, (_, i) => mnemonicToAccount(MNEMONIC, { addressIndex: i }));
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
