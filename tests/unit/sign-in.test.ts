import { describe, expect, it, vi } from 'vitest';
import { resetConfigForTests } from '@/lib/config';
import { profileIdFor } from '@/lib/sources/siwe-local/profile-id';
import { newNonce } from '@/lib/sources/siwe-local';
import { devnetAccounts } from '@/components/auth/devnet-connector';

describe('sign-in pieces', () => {
  it('nonces are >= 17 alphanumeric characters and never repeat', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const n = newNonce();
      expect(n).toMatch(/^[a-zA-Z0-9]{17,}$/);
      seen.add(n);
    }
    expect(seen.size).toBe(2000);
  });

  it('profileId: 0x + 64 hex, stable per address (any case), different per deployment secret', () => {
    vi.stubEnv('SESSION_SECRET', 'a'.repeat(40));
    resetConfigForTests();
    const a = profileIdFor('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(a).toMatch(/^0x[0-9a-f]{64}$/);
    expect(profileIdFor('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266')).toBe(a);
    expect(profileIdFor('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')).not.toBe(a);
    vi.stubEnv('SESSION_SECRET', 'b'.repeat(40));
    resetConfigForTests();
    expect(profileIdFor('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')).not.toBe(a);
  });

  it('the devnet account keys are anvil’s default accounts', () => {
    expect(devnetAccounts[0].address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(devnetAccounts[8].address).toBe('0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f');
    expect(devnetAccounts[9].address).toBe('0xa0Ee7A142d267C1f36714E4a8F75612F20a79720');
  });
});
