import fc from "fast-check";
import {
  decodeAbiParameters,
  encodeAbiParameters,
  hexToString,
  stringToHex,
  type Hex,
} from "viem";
import { describe, expect, it } from "vitest";
import { decodeText } from "@/lib/sources/evm-node/tokens";

// A token's name or symbol as text, decoded by hand (a never-seen wallet of 500 tokens decodes 1,000):
// held to what viem's own decoders make of the same return data, on any input.

/** What the facts reader made of return data with viem: bytes32 as text, else an ABI string; null where viem refuses. */
function viaViem(out: Hex): string | null {
  try {
    if (out.length === 66)
      return hexToString(out, { size: 32 }).replace(/\0+$/, "").trim() || null;
    const [s] = decodeAbiParameters([{ type: "string" }], out);
    return s.trim() || null;
  } catch {
    return null;
  }
}

const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString("hex")}` as Hex;
const bytes = (min: number, max: number) =>
  fc.uint8Array({ minLength: min, maxLength: max });
const word = (n: bigint) => n.toString(16).padStart(64, "0");
/** Text with what names hold in the wild: spaces around, NULs, emoji, lone bytes that are not UTF-8. */
const text = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom("", " ", "  MKR  ", "Maker\0\0", "\0DAI", "\uFEFFBOM")
);

describe("decodeText", () => {
  it("reads an ABI string as viem does", () => {
    fc.assert(
      fc.property(text, (s) => {
        const out = encodeAbiParameters([{ type: "string" }], [s]);
        expect(decodeText(out)).toBe(viaViem(out));
      })
    );
  });

  it("reads a bytes32 as viem does (MKR-style names), trailing NULs dropped", () => {
    fc.assert(
      fc.property(bytes(32, 32), (b) => {
        expect(decodeText(hex(b))).toBe(viaViem(hex(b)));
      })
    );
    expect(decodeText(stringToHex("Maker", { size: 32 }))).toBe("Maker");
    expect(decodeText(`0x${"00".repeat(32)}`)).toBeNull();
  });

  it("agrees with viem on strings whose bytes are not UTF-8, with padding junk after them", () => {
    fc.assert(
      fc.property(bytes(0, 90), bytes(0, 40), (b, junk) => {
        const out = `0x${word(32n)}${word(BigInt(b.length))}${Buffer.from(
          b
        ).toString("hex")}${Buffer.from(junk).toString("hex")}` as Hex;
        expect(decodeText(out)).toBe(viaViem(out));
      })
    );
  });

  it("agrees with viem on offsets and lengths that lie: beyond the data, huge, unsafe, overlapping", () => {
    const big = fc.oneof(
      fc.bigInt({ min: 0n, max: 200n }),
      fc.constantFrom(
        2n ** 53n - 1n,
        2n ** 53n,
        2n ** 56n - 1n,
        2n ** 56n,
        2n ** 255n,
        2n ** 256n - 1n
      ),
      fc.bigInt({ min: 0n, max: 2n ** 256n - 1n })
    );
    fc.assert(
      fc.property(big, big, bytes(0, 120), (offset, length, rest) => {
        const out = `0x${word(offset)}${word(length)}${Buffer.from(
          rest
        ).toString("hex")}` as Hex;
        expect(decodeText(out)).toBe(viaViem(out));
      })
    );
  });

  it("agrees with viem on any bytes at all", () => {
    fc.assert(
      fc.property(bytes(0, 200), (b) => {
        expect(decodeText(hex(b))).toBe(viaViem(hex(b)));
      })
    );
  });

  it("reads a long name as viem does", () => {
    for (const s of ["A".repeat(300_000), `${"B".repeat(3000)}\u00e9`]) {
      const out = encodeAbiParameters([{ type: "string" }], [s]);
      expect(decodeText(out)).toBe(viaViem(out));
    }
  });

  it("is null for no answer and for data that is not hex", () => {
    expect(decodeText(null)).toBeNull();
    expect(decodeText("0x")).toBeNull();
    expect(decodeText(`0x${"zz".repeat(64)}` as Hex)).toBeNull();
    // One character that is not a hex digit, in a high or a low nibble, anywhere in a readable string.
    const good = encodeAbiParameters([{ type: "string" }], ["Bench Token 7"]);
    expect(decodeText(good)).toBe("Bench Token 7");
    for (const at of [2, 3, 2 + 64 * 2 + 6, 2 + 64 * 2 + 7, good.length - 1])
      for (const c of ["g", "x", " ", "\u00e9"])
        expect(decodeText(`${good.slice(0, at)}${c}${good.slice(at + 1)}` as Hex)).toBeNull();
  });
});
