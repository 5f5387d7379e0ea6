import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  challengeRequestBodySchema,
  challengeResponseSchema,
  historyPageSchema,
  nftPageSchema,
  providerErrorSchema,
  serializeHistoryPage,
  serializeNftPage,
  serializeVerifyResponse,
  verifyBodySchema,
  verifyResponseSchema,
} from '@/lib/interface';
import { approvalsPageSchema, serializeApprovalsPage } from '@/lib/interface/approvals';
import { nativeBalanceSchema } from '@/lib/interface/balance';
import { erc20BalancesSchema, serializeTokenBalancesPage, tokenBalancesPageSchema } from '@/lib/interface/tokens';
import { walletStatsSchema } from '@/lib/interface/wallet-stats';
import { transactionSchema } from '@/lib/interface/transaction';
import { exampleFromOpenApi, readReference, REFERENCE_DIR } from './reference';

/** Every parse must succeed; on failure show which field of which file. */
function parseOk<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw new Error(`${where}: ${JSON.stringify(r.error.issues, null, 1)}`);
  return r.data;
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Each reference file this helper's schemas own, with the test that parses it. */
const claims: Record<string, () => void> = {
  'auth-request-evm-docs-example.json': () => {
    const f = readReference<Json>('auth-request-evm-docs-example.json');
    const body = parseOk(challengeRequestBodySchema, f.request.body, 'request');
    expect(body).toMatchObject({ chainId: 1, address: '0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B', timeout: 15 });
    const res = parseOk(challengeResponseSchema, f.response.body, 'response');
    expect(res.message).toContain('Chain ID: 1');
  },
  'auth-request-evm-jssdk-mock.json': () => {
    const f = readReference<Json>('auth-request-evm-jssdk-mock.json');
    // The SDK sends chainId as hex.
    expect(parseOk(challengeRequestBodySchema, f.request.body_as_sent_by_sdk, 'request').chainId).toBe(1);
    expect(parseOk(challengeResponseSchema, f.response.body, 'response').profileId).toBe(f.response.body.profileId);
  },
  'auth-verify-evm-docs-example.json': () => {
    const f = readReference<Json>('auth-verify-evm-docs-example.json');
    expect(parseOk(verifyBodySchema, f.request.body, 'request').message).toContain('Nonce: Px7Nh1RPzlCLwqgOb');
    const r = parseOk(verifyResponseSchema, f.response.body, 'response');
    expect(r).toMatchObject({ chainId: 1, version: '1.0', statement: 'Please confirm', resources: ['https://docs.moralis.io/'] });
    expect(verifyResponseSchema.parse(serializeVerifyResponse(r))).toEqual(r);
  },
  'auth-verify-evm-jssdk-mock.json': () => {
    const f = readReference<Json>('auth-verify-evm-jssdk-mock.json');
    parseOk(verifyBodySchema, f.request.body, 'request');
    const r = parseOk(verifyResponseSchema, f.response.body, 'response');
    expect(r.chainId).toBe(1); // sent as the string "1"
    expect(r.tag).toBe('VALID_RESPONSE'); // unknown keys kept
  },
  'wallet-nfts-docs-ens-synced.json': () => {
    const p = nftRoundTrip('wallet-nfts-docs-ens-synced.json');
    expect(p).toMatchObject({ total: 1456, page: 1, page_size: 100, status: 'SYNCED' });
    expect(p.result).toHaveLength(3);
    expect(p.result[0]).toMatchObject({ token_uri: null, metadata: null, possible_spam: null, minter_address: null });
  },
  'wallet-nfts-jssdk-mock-media-success.json': () => {
    const p = nftRoundTrip('wallet-nfts-jssdk-mock-media-success.json');
    expect(p.total).toBeNull();
    expect(p.result[0].media?.media_collection?.high?.width).toBe(500);
    expect(p.result[0].possible_spam).toBe(false);
  },
  'wallet-nfts-jssdk-mock-schema-example.json': () => {
    const p = nftRoundTrip('wallet-nfts-jssdk-mock-schema-example.json');
    expect(p.status).toBe('SYNCING');
    expect(p.result[0].normalized_metadata?.attributes[0]).toMatchObject({ trait_type: 'Eye Color', value: 'hazel', max_value: 100 });
  },
  'wallet-nfts-jssdk-mock-vitalik-media-processing.json': () => {
    const p = nftRoundTrip('wallet-nfts-jssdk-mock-vitalik-media-processing.json');
    expect(p.result[0].media?.status).toBe('processing');
    expect(p.result[0].normalized_metadata).toBeUndefined();
  },
  'openapi-evm-v2.2-wallet-history-and-nfts.json': () => {
    const doc = readReference<Parameters<typeof exampleFromOpenApi>[0]>('openapi-evm-v2.2-wallet-history-and-nfts.json');
    const history = exampleFromOpenApi(doc, 'walletHistory');
    const page = parseOk(historyPageSchema, history, 'walletHistory example');
    expect(page).toMatchObject({ page: 2, page_size: 100, cursor: null });
    const tx = page.result[0];
    expect(tx).toMatchObject({ category: 'send', summary: 'transfer', method_label: 'transfer', transaction_fee: '0.00000000000000063' });
    expect(tx.possible_spam).toBe(false); // documented boolean, example "false"
    expect(tx.erc20_transfer).toHaveLength(1); // sent as erc20_transfers
    expect(tx.erc20_transfer[0].value).toBe('650000000000000000'); // example is a number
    expect(tx.native_transfers[0].direction).toBe('send'); // "outgoing"
    expect(tx.nft_transfers[0].direction).toBe('send');
    expect(tx.internal_transactions?.[0].block_number).toBe('12526958'); // example is a number
    expect(Array.isArray(tx.logs)).toBe(true); // unknown to the interface, kept
    expect(historyPageSchema.parse(serializeHistoryPage(page))).toEqual(page);

    const nfts = parseOk(nftPageSchema, exampleFromOpenApi(doc, 'nftOwnerCollection'), 'nftOwnerCollection example');
    expect(nfts.result[0]).toMatchObject({ rarity_rank: 21669, verified_collection: false, floor_price: '12345' });
    expect(nftPageSchema.parse(serializeNftPage(nfts))).toEqual(nfts);
  },
  'errors-evm-401-missing-api-key-issue.json': () => {
    const f = readReference<Json>('errors-evm-401-missing-api-key-issue.json');
    expect(parseOk(providerErrorSchema, f.body, 'body').message).toBe('API KEY missing from x-api-key header');
  },
  'errors-jssdk-mock-evm-400-invalid-address.json': () => {
    const f = readReference<Json>('errors-jssdk-mock-evm-400-invalid-address.json');
    expect(parseOk(providerErrorSchema, f.body, 'body').message).toContain('Invalid address');
  },
  'errors-auth-400-jssdk-mock.json': () => {
    const f = readReference<Json[]>('errors-auth-400-jssdk-mock.json');
    expect(f.length).toBeGreaterThan(0);
    for (const e of f) parseOk(providerErrorSchema, e.body, e.endpoint);
  },
  'wallet-tokens-docs-first-request.json': () => {
    const f = readReference<Json>('wallet-tokens-docs-first-request.json');
    const p = parseOk(tokenBalancesPageSchema, f.response.body, 'response');
    expect(p).toMatchObject({ page: 0, page_size: 100, cursor: null, block_number: '23998783' });
    const [native, busd] = p.result;
    expect(native).toMatchObject({ token_address: '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', native_token: true, decimals: 18, total_supply: null, possible_spam: false });
    expect(native.security_score).toBe(99); // unknown to the interface, kept
    expect(busd).toMatchObject({ native_token: false, total_supply: '55026240205945520000000000', balance_formatted: '2.10214389', usd_price: 0.9966474180866458 });
    expect(tokenBalancesPageSchema.parse(serializeTokenBalancesPage(p))).toEqual({ ...p, cursor: null });
  },
  'wallet-erc20-jssdk-mock.json': () => {
    const f = readReference<Json>('wallet-erc20-jssdk-mock.json');
    const list = parseOk(erc20BalancesSchema, f.response.body, 'response');
    expect(list.map((t) => [t.symbol, t.decimals, t.balance])).toEqual([
      ['WETH', 18, '795917396650797993089'],
      ['LINK', 18, '155304334804334409393921'],
    ]);
    expect(list[0].possible_spam).toBeNull(); // not sent: unknown
  },
  'wallet-approvals-docs-openapi-example.json': () => {
    const f = readReference<Json>('wallet-approvals-docs-openapi-example.json');
    const p = parseOk(approvalsPageSchema, f.response.body, 'response');
    expect(p).toMatchObject({ page: 2, page_size: 100, cursor: 'cursor_example' });
    expect(p.result[0]).toMatchObject({ block_number: '12526958', value: '8409770570506626', spender: { address_label: 'Binance 1', entity: 'Opensea' } });
    expect(p.result[0].token).toMatchObject({ symbol: 'USDT', possible_spam: false, current_balance: '1000000000000000', usd_at_risk: 1e15 });
    expect(p.operator_approvals).toBeUndefined();
    expect(approvalsPageSchema.parse(serializeApprovalsPage(p))).toEqual(p);
  },
  'wallet-stats-docs-openapi-example.json': () => {
    const f = readReference<Json>('wallet-stats-docs-openapi-example.json');
    expect(parseOk(walletStatsSchema, f.response.body, 'response')).toEqual({
      nfts: '100',
      collections: '10',
      transactions: { total: '1000' },
      nft_transfers: { total: '1000' },
      token_transfers: { total: '1000' },
    });
  },
  'native-balance-jssdk-mock.json': () => {
    const f = readReference<Json>('native-balance-jssdk-mock.json');
    expect(parseOk(nativeBalanceSchema, f.response.body, 'response')).toEqual({ balance: '39600000000000000' });
  },
  'native-balance-docs-tutorial.json': () => {
    const f = readReference<Json>('native-balance-docs-tutorial.json');
    expect(parseOk(nativeBalanceSchema, f.response.body, 'response')).toEqual({ balance: '2847583920000000000000' });
  },
  'transaction-docs-guide-eth-mainnet.json': () => {
    const f = readReference<Json>('transaction-docs-guide-eth-mainnet.json');
    const tx = parseOk(transactionSchema, f.response.body, 'response');
    expect(tx).toMatchObject({ receipt_status: '1', receipt_contract_address: null, receipt_root: null, from_address_label: null, to_address_label: null });
    expect(tx.logs).toHaveLength(1);
    expect(tx.logs[0]).toMatchObject({ log_index: '299', topic1: null, topic3: null, transaction_value: '62754610757602656' }); // unknown fields kept
    expect(tx.decoded_call).toBeUndefined();
    expect(tx.internal_transactions).toBeUndefined();
  },
  'transaction-verbose-docs-openapi-example.json': () => {
    const f = readReference<Json>('transaction-verbose-docs-openapi-example.json');
    const body = f.response.body;
    // The documented example shows each array by ONE item (SOURCES.md); the schema says where it differs.
    const raw = transactionSchema.safeParse(body);
    expect(raw.success).toBe(false);
    expect(raw.error!.issues.map((i) => i.path.join('.'))).toEqual(['logs', 'internal_transactions']);
    const tx = parseOk(transactionSchema, { ...body, logs: [body.logs], internal_transactions: [body.internal_transactions] }, 'response, arrays');
    expect(tx).toMatchObject({ from_address_label: 'Binance 1', receipt_contract_address: null, receipt_root: null });
    expect(tx.logs[0]).toMatchObject({ topic3: null, decoded_event: { label: 'Transfer', params: [{ name: 'from', type: 'address' }] } });
    expect(tx.decoded_call).toMatchObject({ label: 'transfer', signature: 'transfer(address,uint256)' });
    // No depth from the provider: the page shows these calls as a list (lib/view/tx-page.ts).
    expect(tx.internal_transactions?.[0]).toMatchObject({ block_number: '12526958', type: 'CALL', value: '650000000000000000' });
    expect(tx.internal_transactions?.[0].depth).toBeUndefined();
  },
  'transaction-jssdk-mock.json': () => {
    const f = readReference<Json>('transaction-jssdk-mock.json');
    const tx = parseOk(transactionSchema, f.response.body, 'response');
    expect(tx).toMatchObject({ receipt_status: '1', to_address_label: null, receipt_contract_address: null });
    expect(tx.logs[0]).toMatchObject({ topic3: null, log_index: '110' });
    expect(tx.transfer_index).toEqual([15416552, 47]); // unknown fields kept
  },
  'transaction-verbose-jssdk-mock.json': () => {
    const f = readReference<Json>('transaction-verbose-jssdk-mock.json');
    const tx = parseOk(transactionSchema, f.response.body, 'response');
    expect(tx.decoded_call).toMatchObject({ label: 'transfer', signature: 'transfer(address,uint256)' });
    expect(tx.logs[0].decoded_event?.params.map((p) => p.name)).toEqual(['from', 'to', 'value']);
  },
};

/** Files whose checks live in another test file (file -> that test file), so no empty test stands in for them here. */
const claimedElsewhere: Record<string, string> = {
  'chains-evm-history-and-nfts-by-source.json': 'tests/unit/chains.test.ts',
};

/** Ledger (Move network) files belong to the ledger schemas. */
const isLedgerFile = (name: string) => /aptos|nodit/i.test(name);

function nftRoundTrip(name: string) {
  const page = parseOk(nftPageSchema, readReference(name), name);
  expect(nftPageSchema.parse(serializeNftPage(page))).toEqual(page);
  return page;
}

describe('reference files in tests/fixtures/reference', () => {
  const files = fs.readdirSync(REFERENCE_DIR).filter((f) => f.endsWith('.json'));

  it('every non-ledger JSON file is claimed by a schema test, and every claim exists', () => {
    const unclaimed = files.filter((f) => !isLedgerFile(f) && !(f in claims) && !(f in claimedElsewhere));
    expect(unclaimed).toEqual([]);
    expect([...Object.keys(claims), ...Object.keys(claimedElsewhere)].filter((f) => !files.includes(f))).toEqual([]);
  });

  for (const [file, testFile] of Object.entries(claimedElsewhere)) {
    it(`leaves ${file} to ${testFile}, which reads it`, () => {
      expect(fs.readFileSync(path.resolve(testFile), 'utf8')).toContain(`readReference<Record<string, { pairs?: Pairs }>>('${file}')`);
    });
  }

  for (const [file, check] of Object.entries(claims)) {
    it(`parses ${file}`, check);
  }
});
