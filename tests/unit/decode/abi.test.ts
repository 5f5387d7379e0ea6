import { describe, expect, it } from 'vitest';
import { encodeAbiParameters, encodeEventTopics, encodeFunctionData, getAddress, keccak256, parseAbiItem, toHex, type AbiEvent, type AbiFunction, type Hex } from 'viem';
import { canonicalType, decodeCallArgs, decodeLogArgs, itemText, showValue, signatureOf } from '@/lib/decode/abi';

// The decoder's ABI layer against data viem encodes from known values: tuples, arrays of them, indexed
// arguments (hashed or not), and the round trip that tells exact data from data that only decodes.
const A = getAddress('0x70997970c51812dc3a010c7d01b50e0d17dc79c8');
const B = getAddress('0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc');

const order = parseAbiItem('function fill((address maker, uint256 amount) order, (address to, uint8[] ids)[] legs, uint256[][] grid)') as AbiFunction;

describe('tuples and arrays', () => {
  it('canonical types and the item as the table writes it, tuples spelled out', () => {
    expect(order.inputs.map(canonicalType)).toEqual(['(address,uint256)', '(address,uint8[])[]', 'uint256[][]']);
    expect(signatureOf(order)).toBe('fill((address,uint256),(address,uint8[])[],uint256[][])');
    expect(itemText(order)).toBe('fill((address maker,uint256 amount) order,(address to,uint8[] ids)[] legs,uint256[][] grid)');
    const ev = parseAbiItem('event Moved(address indexed who, (uint256 a, bool b) what)') as AbiEvent;
    expect(itemText(ev)).toBe('Moved(address indexed who,(uint256 a,bool b) what)');
  });

  it('a call with a tuple, an array of tuples and an array of arrays: values written out, fields named', () => {
    const input = encodeFunctionData({
      abi: [order],
      args: [{ maker: A, amount: 5n }, [{ to: B, ids: [1, 2] }, { to: A, ids: [] }], [[1n, 2n], [], [3n]]],
    });
    const out = decodeCallArgs(order, input)!;
    expect(out.exact).toBe(true);
    expect(out.args.map((a) => [a.name, a.type, a.value])).toEqual([
      ['order', '(address,uint256)', `(${A},5)`],
      ['legs', '(address,uint8[])[]', `[(${B},[1,2]),(${A},[])]`],
      ['grid', 'uint256[][]', '[[1,2],[],[3]]'],
    ]);
    expect(out.args[0]!.components!.map((c) => [c.name, c.type, c.value])).toEqual([
      ['maker', 'address', A],
      ['amount', 'uint256', '5'],
    ]);
    // Only a tuple itself has fields; an array of them is written out whole.
    expect(out.args[1]!.components).toBeUndefined();
    expect(out.args[2]!.components).toBeUndefined();
  });

  it('unnamed arguments and fields are named by position', () => {
    const f = parseAbiItem('function f((uint256, address), bool)') as AbiFunction;
    const out = decodeCallArgs(f, encodeFunctionData({ abi: [f], args: [[7n, A], true] }))!;
    expect(out.args.map((a) => a.name)).toEqual(['0', '1']);
    expect(out.args[0]!.components!.map((c) => [c.name, c.value])).toEqual([['0', '7'], ['1', A]]);
    expect(out.args[0]!.value).toBe(`(7,${A})`);
  });

  it('values written out without a type: arrays bracketed, anything else as text', () => {
    expect(showValue([1n, [2n, 'x']])).toBe('[1,[2,x]]');
    expect(showValue(true)).toBe('true');
    expect(showValue({ a: 1 }, { type: 'uint256', name: 'a' })).toBe('[object Object]');
  });
});

describe('the round trip', () => {
  const transfer = parseAbiItem('function transfer(address to, uint256 amount)') as AbiFunction;
  const good = encodeFunctionData({ abi: [transfer], args: [A, 10n] });

  it('exact data round-trips; trailing bytes or dirty padding decode but are not exact; short data does not decode', () => {
    expect(decodeCallArgs(transfer, good)!.exact).toBe(true);
    expect(decodeCallArgs(transfer, `${good}00000000` as Hex)!.exact).toBe(false);
    // The address word with a dirty high byte.
    const dirty = `${good.slice(0, 10)}ff${good.slice(12)}` as Hex;
    expect(decodeCallArgs(transfer, dirty)!.exact).toBe(false);
    expect(decodeCallArgs(transfer, good.slice(0, 40) as Hex)).toBeNull();
  });

  const moved = parseAbiItem('event Moved(address indexed from, uint8 indexed kind, string indexed memo, uint256 value)') as AbiEvent;
  const topics = encodeEventTopics({ abi: [moved], eventName: 'Moved', args: { from: A, kind: 3, memo: 'hi' } }) as Hex[];
  const data = encodeAbiParameters([{ type: 'uint256' }], [42n]);

  it('a log: indexed values from topics, a hashed one shown as its hash, the rest from data', () => {
    const out = decodeLogArgs(moved, topics, data)!;
    expect(out.exact).toBe(true);
    expect(out.args.map((a) => [a.name, a.type, a.value, a.indexed])).toEqual([
      ['from', 'address', A, true],
      ['kind', 'uint8', '3', true],
      ['memo', 'string', keccak256(toHex('hi')), true],
      ['value', 'uint256', '42', false],
    ]);
  });

  it('a topic of a uint8 holding 258 decodes but is not exact; data with trailing bytes neither', () => {
    const wide = [...topics];
    wide[2] = toHex(258n, { size: 32 });
    expect(decodeLogArgs(moved, wide, data)!.exact).toBe(false);
    expect(decodeLogArgs(moved, topics, `${data}00` as Hex)!.exact).toBe(false);
    expect(decodeLogArgs(moved, topics, `${data}${'00'.repeat(32)}` as Hex)!.exact).toBe(false);
  });

  it('a log with no data arguments: empty data is exact, any data is not', () => {
    const ping = parseAbiItem('event Ping(address indexed from)') as AbiEvent;
    const t = encodeEventTopics({ abi: [ping], eventName: 'Ping', args: { from: A } }) as Hex[];
    expect(decodeLogArgs(ping, t, '0x')).toEqual({ exact: true, args: [{ name: 'from', type: 'address', value: A, indexed: true }] });
    expect(decodeLogArgs(ping, t, data)!.exact).toBe(false);
  });

  it('a log whose topics do not match the indexed arguments, a bool topic of 2, or data too short, is not this event', () => {
    expect(decodeLogArgs(moved, topics.slice(0, 3), data)).toBeNull();
    expect(decodeLogArgs(moved, [...topics, topics[1]!], data)).toBeNull();
    const flag = parseAbiItem('event Flag(bool indexed on)') as AbiEvent;
    const t = encodeEventTopics({ abi: [flag], eventName: 'Flag', args: { on: true } }) as Hex[];
    expect(decodeLogArgs(flag, t, '0x')!.args[0]!.value).toBe('true');
    expect(decodeLogArgs(flag, [t[0]!, toHex(2n, { size: 32 })], '0x')).toBeNull();
    expect(decodeLogArgs(moved, topics, '0x1234')).toBeNull();
    // Arguments in data, and no data at all.
    expect(decodeLogArgs(moved, topics, '0x')).toBeNull();
  });
});
