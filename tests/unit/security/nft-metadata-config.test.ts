import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../../lib/config';

describe('NFT_METADATA_ALLOW_HOSTS', () => {
  it('is empty by default: no host is exempt from the public-address rule', () => {
    expect(parseConfig({}).nftMetadataAllowHosts).toEqual([]);
  });

  it('takes host and host:port entries, IPv6 in brackets, lowercased', () => {
    expect(parseConfig({ NFT_METADATA_ALLOW_HOSTS: '127.0.0.1:9999, IPFS.internal,[::1]:8080' }).nftMetadataAllowHosts).toEqual([
      '127.0.0.1:9999',
      'ipfs.internal',
      '[::1]:8080',
    ]);
  });

  it('refuses a URL or a path, naming the variable and not the value', () => {
    for (const bad of ['http://ipfs.internal', 'ipfs.internal/x', 'a b']) {
      let err: unknown;
      try {
        parseConfig({ NFT_METADATA_ALLOW_HOSTS: bad });
      } catch (e) {
        err = e;
      }
      expect(err, bad).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toContain('NFT_METADATA_ALLOW_HOSTS: each entry is host or host:port');
      expect((err as Error).message).not.toContain(bad);
    }
  });
});
