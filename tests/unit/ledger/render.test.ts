import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { toBlockView, toDetail, toRow } from '@/lib/view/ledger-block';
import { formatMicros, octasToApt } from '@/lib/format';
import type { LedgerTransaction } from '@/lib/interface/ledger';
import { parseBlock } from '../../support/ledger-schemas';
import { readReference, referenceFiles } from '../../support/reference';

// The table imports a server action; outside Next it is a plain function we never call here.
vi.mock('@/lib/actions/ledger', () => ({ loadTransactionDetail: async () => ({}) }));
vi.mock('next/navigation', () => ({ useRouter: () => ({ push() {}, refresh() {} }) }));

const blocks = referenceFiles(/^aptos-.*\.json$/).map((f) => [f, parseBlock(readReference(f))] as const);

describe('every reference block renders', () => {
  it.each(blocks)('%s: summary and every row', async (_file, block) => {
    const { TransactionsTable } = await import('@/components/ledger/transactions-table');
    const { BlockSummary } = await import('@/components/ledger/block-summary');
    const view = toBlockView(block);
    const html = renderToString(createElement('div', null, createElement(BlockSummary, { block: view, network: 'mainnet', query: '', now: Date.parse('2030-01-01T00:00:00Z') }), createElement(TransactionsTable, { network: 'mainnet', rows: view.rows!, highlight: block.lastVersion })));
    expect(html).toContain(`>${block.height}<`);
    expect(html).toContain('UTC');
    expect(html).toMatch(/\d+ (y|mo|d) ago/);
    for (const tx of block.transactions!) expect(html).toContain(`data-version="${(tx as { version: string }).version}"`);
    expect(html).toContain(`data-testid="tx-searched"`);
    // The summary's epoch and proposer are the block metadata transaction's.
    const meta = block.transactions!.find((t) => t.type === 'block_metadata_transaction') as { epoch: string; proposer: string };
    expect([view.epoch, view.proposer]).toEqual([meta.epoch, meta.proposer]);
    expect(meta.proposer).toMatch(/^0x[0-9a-f]{64}$/);
  });
});

describe('each variant shows its own fields', () => {
  const all = blocks.flatMap(([, b]) => b.transactions!);
  const byType = (t: string) => all.find((x) => x.type === t)!;
  const labels = (tx: LedgerTransaction) => toDetail(tx).fields.map((f) => f.label);

  it('user transaction: sender, sequence number, gas, function and arguments', () => {
    const tx = byType('user_transaction');
    expect(labels(tx)).toEqual(expect.arrayContaining(['Sender', 'Sequence number', 'Max gas amount', 'Gas unit price', 'Expiration (s)']));
    const row = toRow(tx);
    expect(row.action).toMatch(/^0x[0-9a-f]+::\w+::\w+$/);
    expect(row.sender).toMatch(/^0x/);
    expect(row.gasUsed).toBe('4757');
    expect(row.gasUnitPrice).toBe('133');
    expect(toDetail(tx).signature).toMatchObject({ type: 'ed25519_signature' });
    expect(toDetail(tx).events.length).toBeGreaterThan(0);
  });
  it('block metadata: epoch, round, proposer, votes', () => {
    expect(labels(byType('block_metadata_transaction'))).toEqual(expect.arrayContaining(['Epoch', 'Round', 'Proposer', 'Previous block votes', 'Failed proposer indices']));
  });
  it('state checkpoint and block epilogue', () => {
    expect(labels(byType('state_checkpoint_transaction'))).toContain('State checkpoint hash');
    expect(labels(byType('block_epilogue_transaction'))).toContain('End info: block gas limit reached');
  });
  it('validator, genesis and unknown variants', () => {
    const common = { hash: '0x01', state_change_hash: '0x02', event_root_hash: '0x03', state_checkpoint_hash: null, gas_used: '0', success: true, vm_status: 'Executed successfully', accumulator_root_hash: '0x04', changes: [] };
    const validator = { type: 'validator_transaction', version: '9', ...common, events: [], timestamp: '1', validator_transaction_type: 'dkg_result' } as LedgerTransaction;
    expect(labels(validator)).toContain('Validator transaction type');
    expect(toRow(validator).action).toBe('validator: dkg_result');
    const genesis = { type: 'genesis_transaction', version: '0', ...common, payload: { type: 'write_set_payload', write_set: {} }, events: [] } as LedgerTransaction;
    expect(toDetail(genesis).fields[0]).toEqual({ label: 'Write set', value: 'write_set_payload', mono: true });
    const future = { type: 'shiny_new_transaction', version: '10', odd: 1 } as LedgerTransaction;
    expect(toRow(future).action).toContain('not known');
    expect(toDetail(future).raw).toEqual(future);
  });
});

describe('formatting', () => {
  it('times from microseconds, exactly', () => {
    expect(formatMicros('1676221006271819')).toBe('2023-02-12 16:56:46.271819 UTC');
  });
  it('fees and hashes', () => {
    expect(octasToApt(4757n * 133n)).toBe('0.00632681');
    expect(octasToApt(100_000_000n)).toBe('1');
  });
});
