// `npm run dev -- --live`: keeps the devnet moving, so a newcomer can watch a wallet page update. Every
// few seconds one scenario-like transaction between the telling wallets (ETH, USDC and LNT payments
// among alice, bob, carol and erin), sent from anvil's unlocked accounts; a token payment is skipped when
// its sender holds too little. Mined at once (the devnet automines).
import { rpcClient } from './rpc.mjs';

const TRANSFER = '0xa9059cbb';
const BALANCE_OF = '0x70a08231';
const word = (hex) => hex.replace(/^0x/, '').padStart(64, '0');

/**
 * @param {{ rpcUrl: string, manifest: { accounts: Record<string, { address: string }>, contracts: Record<string, { address: string, decimals?: number }> }, intervalMs?: number, log?: (line: string) => void }} o
 * @returns {{ stop: () => Promise<void>, sent: () => number }}
 */
export function startLiveDriver({ rpcUrl, manifest, intervalMs = 4000, log = () => {} }) {
  const rpc = rpcClient(rpcUrl);
  const who = (name) => manifest.accounts[name].address;
  const usdc = manifest.contracts.usdc.address;
  const lnt = manifest.contracts.lnt.address;
  // The story, round and round: [from, to, what, amount in the token's smallest unit].
  const steps = [
    ['alice', 'bob', 'ETH', 10n ** 16n],
    ['carol', 'alice', usdc, 2_500_000n],
    ['bob', 'carol', 'ETH', 5n * 10n ** 15n],
    ['alice', 'erin', lnt, 3n * 10n ** 18n],
    ['erin', 'alice', 'ETH', 2n * 10n ** 16n],
    ['alice', 'carol', usdc, 1_000_000n],
  ];
  const mined = async (hash) => {
    for (let n = 0; n < 200; n++) {
      if (await rpc.call('eth_getTransactionReceipt', [hash])) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`${hash} was not mined within 5 s`);
  };
  let i = 0;
  let sent = 0;
  let busy = null;
  let stopped = false;
  const tick = () => (busy ??= send().finally(() => (busy = null)));
  const send = async () => {
    try {
      for (let tries = 0; tries < steps.length && !stopped; tries++) {
        const [from, to, what, amount] = steps[i++ % steps.length];
        const tx = { from: who(from), gas: '0x30d40' };
        if (what === 'ETH') {
          Object.assign(tx, { to: who(to), value: `0x${amount.toString(16)}` });
        } else {
          const held = BigInt(await rpc.call('eth_call', [{ to: what, data: `${BALANCE_OF}${word(who(from))}` }, 'latest']));
          if (held < amount) continue;
          Object.assign(tx, { to: what, data: `${TRANSFER}${word(who(to))}${word(amount.toString(16))}` });
        }
        const hash = await rpc.call('eth_sendTransaction', [tx]);
        // anvil answers before its automined block is in place; count a payment once it is mined.
        await mined(hash);
        sent++;
        log(`[devnet-live] ${from} -> ${to}: ${what === 'ETH' ? 'ETH' : what === usdc ? 'USDC' : 'LNT'} (${hash.slice(0, 10)}…)`);
        break;
      }
    } catch (e) {
      log(`[devnet-live] could not send: ${e.message}`);
    }
  };
  const timer = setInterval(() => void tick(), intervalMs);
  void tick();
  return {
    /** No transaction is sent after this resolves. */
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await busy;
    },
    sent: () => sent,
  };
}
