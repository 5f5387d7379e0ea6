import { Aptos, AptosApiError, AptosConfig, Network } from '@aptos-labs/ts-sdk';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { BIG_BLOCK, EPILOGUE_FROM, HUGE_BLOCK, PRUNED_BELOW } from '../../devnet/ledger/chain.mjs';
import { startLantern, type LanternInstance } from '../support/lantern';

/**
 * The vendor's Aptos TS SDK (`@aptos-labs/ts-sdk`) with its fullnode set to a Lantern's ledger path, as a
 * user points it:  new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: `${lantern}/api/ledger/local`,
 *   clientConfig: { HEADERS: { 'X-API-Key': key } } }))  (the header only when the Lantern sets API_KEYS)
 * Node mode reads the shared ledger devnet; hosted mode serves `mainnet` through its hosted client from
 * a node-mode Lantern (a Lantern fronting a Lantern). Expected blocks are the devnet node's own JSON.
 * Big blocks travel twice in hosted mode on a shared 2-core machine: timeouts are generous and nothing
 * here measures time.
 */
const UPSTREAM_KEY = 'hosted-ledger-key-0123456789';
const SDK_KEY = 'aptos-sdk-key-0123456789';
// Lantern reads its API key from X-API-Key (API_KEYS set); the SDK sends extra headers from clientConfig.
const clientConfig = { HEADERS: { 'X-API-Key': SDK_KEY } };
const SLOW = 180_000;
let node: LanternInstance;
let hosted: LanternInstance;
let ledgerUrl: string;

beforeAll(async () => {
  ledgerUrl = inject('ledgerUrl');
  node = await startLantern({ LEDGER_API_URL_LOCAL: ledgerUrl, UPSTREAM_TIMEOUT_MS: '120000', API_KEYS: `${UPSTREAM_KEY},${SDK_KEY}` });
  hosted = await startLantern({
    DATA_API_KEY: UPSTREAM_KEY,
    LEDGER_API_URL_MAINNET: `${node.url}/api/ledger/local`,
    LEDGER_API_URL_LOCAL: ledgerUrl,
    UPSTREAM_TIMEOUT_MS: '120000',
    API_KEYS: SDK_KEY,
  });
});
afterAll(async () => {
  await hosted?.stop();
  await node?.stop();
});

/** The devnet node's own answer (the ground truth), by height or by version. */
async function fromNode(path: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${ledgerUrl}${path}`);
  expect(res.status, path).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}
const firstVersionOf = async (height: number) => BigInt((await fromNode(`/blocks/by_height/${height}`)).first_version as string);

const clients: [string, () => Aptos][] = [
  ['node mode', () => new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: `${node.url}/api/ledger/local`, clientConfig }))],
  ['hosted mode fronting node mode', () => new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: `${hosted.url}/api/ledger/mainnet`, clientConfig }))],
];

for (const [label, client] of clients) {
  describe(`Aptos TS SDK getBlockByVersion against Lantern (${label})`, () => {
    const blocks: [string, number, number][] = [
      // name, height, offset of the asked version inside the block
      ['an ordinary block (state checkpoint)', 1200, 1],
      ['an ordinary block (block epilogue)', EPILOGUE_FROM + 7, 2],
      ['the 2,002-transaction block', BIG_BLOCK, 1500],
      ['the 10,000-transaction block', HUGE_BLOCK, 9999],
    ];
    for (const [name, height, offset] of blocks) {
      it(
        `${name}, with and without transactions, equals the node's`,
        async () => {
          const version = (await firstVersionOf(height)) + BigInt(offset);
          const expected = await fromNode(`/blocks/by_version/${version}?with_transactions=true`);
          const aptos = client();

          const bare = await aptos.getBlockByVersion({ ledgerVersion: version });
          const { transactions: _all, ...envelope } = expected;
          expect(bare).toEqual(envelope);
          expect(bare.block_height).toBe(String(height));

          const full = await aptos.getBlockByVersion({ ledgerVersion: version, options: { withTransactions: true } });
          expect(full.transactions!.length).toBe(Number(BigInt(full.last_version) - BigInt(full.first_version)) + 1);
          expect(full).toEqual(expected);
        },
        SLOW,
      );
    }

    /** The SDK's error for `version`, with the body Lantern sent. */
    async function sdkError(version: bigint | number): Promise<AptosApiError> {
      const err = await client()
        .getBlockByVersion({ ledgerVersion: version })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(err).toBeInstanceOf(AptosApiError);
      return err as AptosApiError;
    }
    const nodeShape = { message: expect.any(String), error_code: expect.any(String), vm_error_code: null };

    it('a pruned version: the SDK throws AptosApiError 410 with the node’s error shape', async () => {
      const err = await sdkError((await firstVersionOf(PRUNED_BELOW)) - 1n);
      expect(err.status).toBe(410);
      expect(err.data).toMatchObject({ ...nodeShape, error_code: 'version_pruned', code: 'block_pruned' });
    });

    it('a version beyond the head: AptosApiError 404, version_not_found', async () => {
      const info = await fromNode('');
      const err = await sdkError(BigInt(info.ledger_version as string) + 1000n);
      expect(err.status).toBe(404);
      expect(err.data).toMatchObject({ ...nodeShape, error_code: 'version_not_found' });
    });

    it('an invalid version (above u64): AptosApiError 400, invalid_input', async () => {
      const err = await sdkError(2n ** 64n);
      expect(err.status).toBe(400);
      expect(err.data).toMatchObject({ ...nodeShape, error_code: 'invalid_input', code: 'invalid_parameter' });
      expect((err.data as { message: string }).message).toMatch(/unsigned 64-bit/);
    });
  });
}
