import { describe, expect, it } from 'vitest';
import { getAddress } from 'viem';
import { checksummedWalletPath } from '@/lib/view/wallet-path';

// The oracle for the checksum is viem's getAddress (EIP-55), not the rule under test.
const lower = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const cs = getAddress(lower);

describe('a wallet page named in any case but the checksummed one (proxy.ts and the pages share this rule)', () => {
  it('goes to the same page and query under the checksummed address', () => {
    expect(checksummedWalletPath(`/wallet/${lower}`, '')).toBe(`/wallet/${cs}`);
    expect(checksummedWalletPath(`/wallet/${lower.toUpperCase().replace('0X', '0x')}/nfts`, '?spam=true')).toBe(`/wallet/${cs}/nfts?spam=true`);
    for (const tab of ['activity', 'approvals', 'tokens']) expect(checksummedWalletPath(`/wallet/${lower}/${tab}`, '?chain=devnet')).toBe(`/wallet/${cs}/${tab}?chain=devnet`);
    // %-escaped characters of the address are read as the page reads them.
    expect(checksummedWalletPath(`/wallet/%30x${lower.slice(2)}`, '')).toBe(`/wallet/${cs}`);
  });

  it('leaves alone the checksummed URL, what is not an address (the page’s 404 explains) and paths that take any case', () => {
    expect(checksummedWalletPath(`/wallet/${cs}`, '')).toBeNull();
    expect(checksummedWalletPath(`/wallet/${cs}/nfts`, '?spam=true')).toBeNull();
    expect(checksummedWalletPath('/wallet/0x12345', '')).toBeNull();
    expect(checksummedWalletPath('/wallet/%ZZ', '')).toBeNull();
    for (const rest of ['history.csv', 'tokens.csv', 'opengraph-image', 'nfts/extra']) expect(checksummedWalletPath(`/wallet/${lower}/${rest}`, '')).toBeNull();
    expect(checksummedWalletPath(`/tx/${lower}`, '')).toBeNull();
  });
});
