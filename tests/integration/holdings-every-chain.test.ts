import { createPublicClient, http, type PublicClient } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadManifest } from '../../devnet/evm/index.mjs';
import { secondSigners } from '../../devnet/evm/second.mjs';
import { expectMatchesNode, partiesOfLogs } from '../support/holdings-oracle';
import { startLantern, type LanternInstance } from '../support/lantern';

/**
 * Holdings and approvals against the node, on every devnet chain one server reads (devnet 31337 and
 * devnet2 31338, its default nodes). For every scenario wallet of each chain, `/wallets/{a}/tokens` equals
 * what the node says at the answer's block_number, read here with viem: balanceOf of every ERC-20 that
 * ever emitted a Transfer naming the wallet (found with eth_getLogs; zero balances left out, reverting ones
 * listed as unreadable), and the native balance with eth_getBalance; and `/wallets/{a}/approvals` (every
 * page) equals allowance() of every (token, spender) its Approval logs name it owner of (zero ones left
 * out) and isApprovedForAll() of every ApprovalForAll pair (false ones left out), at that answer's block.
 * The oracle is tests/support/holdings-oracle.ts; the foreign OpenZeppelin chain runs it too
 * (evm-foreign-chain.test.ts).
 */

const CHAINS = ['devnet', 'devnet2'] as const;
type ChainName = (typeof CHAINS)[number];

let lantern: LanternInstance;
let clients: Record<ChainName, PublicClient>;

/** The chain's scenario wallets: its named accounts and contracts, and every party of an ERC-20 Transfer or Approval on it. */
async function walletsOf(chain: ChainName): Promise<string[]> {
  const named =
    chain === 'devnet'
      ? (() => {
          const m = loadManifest();
          return [...Object.values(m.accounts).map((a) => a.address), ...Object.values(m.contracts).map((c) => c.address)];
        })()
      : Object.values(secondSigners()).map((a) => a.address);
  return [...new Set([...named.map((a) => a.toLowerCase()), ...(await partiesOfLogs(clients[chain]))])].sort();
}

beforeAll(async () => {
  clients = {
    devnet: createPublicClient({ transport: http(inject('evmRpcUrl')) }),
    devnet2: createPublicClient({ transport: http(inject('evm2RpcUrl')) }),
  };
  // Names no node: its default nodes are the run's two devnets (global-setup's DEVNET_EVM_PORT, DEVNET_EVM2_PORT).
  lantern = await startLantern({});
}, 120_000);

afterAll(async () => {
  await lantern?.stop();
});

describe.each(CHAINS)('%s: every scenario wallet', (chain) => {
  it('tokens equal balanceOf and eth_getBalance, approvals equal allowance and isApprovedForAll, each at its answer’s block', async () => {
    const wallets = await walletsOf(chain);
    expect(wallets.length).toBeGreaterThan(3);
    const seen = { held: 0, allowances: 0, operators: 0 };
    for (const wallet of wallets) {
      const n = await expectMatchesNode(clients[chain], lantern.url, wallet, chain, chain);
      seen.held += n.held;
      seen.allowances += n.allowances;
      seen.operators += n.operators;
    }
    // The chain's scenario holds tokens (and the first gives approvals): an empty oracle would prove nothing.
    expect(seen.held).toBeGreaterThan(0);
    if (chain === 'devnet') {
      expect(seen.allowances).toBeGreaterThanOrEqual(2);
      expect(seen.operators).toBeGreaterThanOrEqual(1);
    }
  }, 300_000);
});
