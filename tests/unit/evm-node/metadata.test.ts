import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { erc1155IdHex, normaliseMetadata } from '../../../lib/sources/evm-node/metadata';

// EIP-1155, Metadata: "If the string `{id}` exists in any JSON value, it MUST be replaced with the actual
// token ID, by all client software that follows this standard", as lowercase hex, 64 digits, no 0x.

const meta = {
  name: 'Lamp {id}',
  description: 'Token {id} of the collection',
  image: 'ipfs://QmImages/{id}.png',
  animation_url: 'https://example.org/anim/{id}.mp4',
  external_url: 'https://example.org/t/{id}',
  attributes: [{ trait_type: 'Serial', value: '{id}' }, { trait_type: 'Level', value: 3 }],
};

describe('ERC-1155 {id} inside the metadata JSON', () => {
  it('is the id as 64 lowercase hex digits in every value, for an ERC-1155 token', () => {
    const id = '314592'; // 0x4cce0
    const hex = '000000000000000000000000000000000000000000000000000000000004cce0';
    expect(erc1155IdHex(id)).toBe(hex);
    const n = normaliseMetadata(JSON.stringify(meta), id);
    expect(n).toMatchObject({
      name: `Lamp ${hex}`,
      description: `Token ${hex} of the collection`,
      image: `ipfs://QmImages/${hex}.png`,
      animation_url: `https://example.org/anim/${hex}.mp4`,
      external_link: `https://example.org/t/${hex}`,
    });
    expect(n.attributes.map((a) => a.value)).toEqual([hex, 3]);
  });

  it('is left alone for an ERC-721 token (the rule is ERC-1155’s)', () => {
    const n = normaliseMetadata(JSON.stringify(meta));
    expect([n.name, n.image]).toEqual(['Lamp {id}', 'ipfs://QmImages/{id}.png']);
  });

  test.prop([fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }), fc.string({ maxLength: 30 })])('any id, any text around it', (id, text) => {
    const n = normaliseMetadata(JSON.stringify({ image: `${text}{id}${text}` }), id.toString());
    const hex = id.toString(16).padStart(64, '0');
    expect(hex).toMatch(/^[0-9a-f]{64}$/);
    expect(n.image).toBe(`${text.replaceAll('{id}', hex)}${hex}${text.replaceAll('{id}', hex)}`);
  });

  it('JSON that is not an object normalises to nothing, with or without an id', () => {
    for (const raw of ['[1,2]', '"{id}"', '7', 'null', '{not json']) {
      expect(normaliseMetadata(raw, '1')).toMatchObject({ name: null, image: null, attributes: [] });
    }
  });
});
