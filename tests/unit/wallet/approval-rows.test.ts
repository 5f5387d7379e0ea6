import { describe, expect, it } from 'vitest';
import { approvalSchema, operatorApprovalSchema } from '@/lib/interface/approvals';
import { approvalRows } from '@/lib/server/approvals-page';

const token = { address: '0x1111111111111111111111111111111111111111', name: 'USD Coin', symbol: 'USDC', possible_spam: false, verified_contract: false, usd_price: null, usd_at_risk: null };
const spender = { address: '0x2222222222222222222222222222222222222222', address_label: null, entity: null, entity_logo: null };
const approval = (value: string, formatted: string, balance: string | null, balanceFormatted: string | null, extra: object = {}) =>
  approvalSchema.parse({
    block_number: '10',
    block_timestamp: '2026-01-01T00:00:00.000Z',
    transaction_hash: '0xabc',
    value,
    value_formatted: formatted,
    token: { ...token, current_balance: balance, current_balance_formatted: balanceFormatted, ...extra },
    spender,
  });

describe('approval rows', () => {
  it('names the largest uint256 "Unlimited", and what it can take now is the balance', () => {
    const max = (2n ** 256n - 1n).toString();
    const [row] = approvalRows([approval(max, '115792089237316195423570985008687907853269984665640564039457584007913129.639935', '5000000000', '5000')], []);
    expect(row!.amount).toBe('Unlimited');
    expect(row!.atRisk).toBe('5,000');
    expect(row!.raw).toBe(max);
  });

  it('at risk is the smaller of the allowance and the balance', () => {
    const [small, large] = approvalRows(
      [approval('750000000', '750', '4000000000', '4000'), approval('9000000000', '9000', '1234567891', '1234.567891')],
      [],
    );
    expect(small!.amount).toBe('750');
    expect(small!.atRisk).toBe('750');
    expect(large!.amount).toBe('9,000');
    expect(large!.atRisk).toBe('1,234.567891');
  });

  it('an unknown balance leaves the value at risk unsaid; a token name cannot carry control characters', () => {
    const [row] = approvalRows([approval('1', '0.000001', null, null, { name: 'Evil\u202eToken\u0000' })], []);
    expect(row!.atRisk).toBeNull();
    expect(row!.token.name).toBe('EvilToken');
  });

  it('an operator is listed after the allowances, with no amount', () => {
    const op = operatorApprovalSchema.parse({
      block_number: '11',
      block_timestamp: null,
      transaction_hash: '0xdef',
      token: { address: '0x3333333333333333333333333333333333333333', name: 'Keys', symbol: 'KEY', contract_type: 'ERC721', possible_spam: false },
      operator: spender,
    });
    const rows = approvalRows([approval('1', '0.000001', '1', '0.000001')], [op]);
    expect(rows.map((r) => r.kind)).toEqual(['erc20', 'operator']);
    expect(rows[1]!.amount).toBeNull();
    expect(rows[1]!.spender.address).toBe(spender.address);
  });
});
