import 'server-only';
import type { Chain } from '@/lib/chains';
import { nativeBalanceSchema, type NativeBalance } from '@/lib/interface/balance';
import { hostedRequest } from './client';

export function hostedNativeBalance(address: string, chain: Chain): Promise<NativeBalance> {
  return hostedRequest({
    service: 'data',
    path: `/api/v2.2/${encodeURIComponent(address)}/balance`,
    query: { chain: chain.hex },
    schema: nativeBalanceSchema,
  });
}
