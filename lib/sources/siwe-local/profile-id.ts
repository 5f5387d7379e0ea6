import 'server-only';
import { createHmac } from 'node:crypto';
import { config } from '@/lib/config';

/**
 * A profile id is `0x` + 64 hex: HMAC-SHA256 of the lower-case address under a key derived from
 * SESSION_SECRET. Stable for an address within one deployment (saved wallets hang on it), and not
 * guessable or linkable across deployments, which use different secrets.
 */
export function profileIdFor(address: string): `0x${string}` {
  const key = createHmac('sha256', config().sessionSecret).update('lantern:profile-id:v1').digest();
  return `0x${createHmac('sha256', key).update(address.toLowerCase()).digest('hex')}`;
}
