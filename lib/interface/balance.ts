import { z } from 'zod';
import { queryChain } from './common';

/**
 * The native-balance operation: `GET {base_url}/api/v2.2/{address}/balance?chain=`, answering
 * `{"balance": "<wei as a decimal string>"}` (the hosted API's shape; see tests/fixtures/reference).
 * Loose: a field the provider adds later is kept, never a reason to fail.
 */
export const nativeBalanceSchema = z.looseObject({
  balance: z.string().regex(/^\d{1,78}$/, { error: 'balance must be a decimal string of wei' }),
});
export type NativeBalance = z.output<typeof nativeBalanceSchema>;

export const balanceQuerySchema = z.object({ chain: queryChain });
export type BalanceQuery = z.output<typeof balanceQuerySchema>;
