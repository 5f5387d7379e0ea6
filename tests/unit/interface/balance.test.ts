import { describe, expect, it } from 'vitest';
import { balanceQuerySchema, nativeBalanceSchema } from '@/lib/interface/balance';

describe('native balance schema', () => {
  it('accepts any wei amount as a decimal string and keeps unknown fields', () => {
    const amounts = [0n, 1n, 39600000000000000n, ...Array.from({ length: 256 }, (_, i) => 2n ** BigInt(i + 1) - 1n)];
    for (const wei of amounts) expect(nativeBalanceSchema.parse({ balance: wei.toString(), extra: 1 })).toEqual({ balance: wei.toString(), extra: 1 });
  });

  it('refuses what is not wei in decimal', () => {
    for (const balance of ['', '-1', '1.5', '0x10', ' 1', 1, null, '1'.repeat(79)]) expect(nativeBalanceSchema.safeParse({ balance }).success).toBe(false);
    expect(nativeBalanceSchema.safeParse({}).success).toBe(false);
  });

  it('takes chain as its only parameter; a blank chain means the default', () => {
    expect(balanceQuerySchema.parse({ chain: '0x1' })).toEqual({ chain: '0x1' });
    expect(balanceQuerySchema.parse({ chain: ' ' })).toEqual({ chain: undefined });
  });
});
