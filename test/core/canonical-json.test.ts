import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { canonicalJsonExact } from "../../src/core/canonical-json.ts";
import {
  canonicalJson,
  canonicalSha256,
  compareCodePoints,
  FabenchError,
  sha256Hex,
} from "../../src/core/index.ts";

// Expected strings and hashes below were produced by Python 3.11:
// json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
describe("canonicalJson", () => {
  it("sorts keys by code point, so an astral key sorts after a private-use BMP key", () => {
    const value = {
      b: 1,
      a: [1, 2, { z: null, y: true }],
      "\ue000": "x",
      "\u{1F600}": "y",
      é: 'ß\n\t"\\\x01\x7f\u2028',
    };
    const text = canonicalJson(value);
    expect(text.indexOf('"\ue000"')).toBeLessThan(text.indexOf('"\u{1F600}"'));
    expect(sha256Hex(text)).toBe("d4dd35861be692f9d1fdd39c01686aa0e27114f11171134bb81af4e43b2ea74f");
  });

  it("writes numbers as Python's repr does, including small exponents and big integers", () => {
    const text = canonicalJson([0.1, 1e-5, 1.5e-7, 123.456, -2.5e-300, 1e21, -7, 0.0001, 1 / 3]);
    expect(text).toBe(
      "[0.1,1e-05,1.5e-07,123.456,-2.5e-300,1000000000000000000000,-7,0.0001,0.3333333333333333]",
    );
    expect(canonicalSha256([0.1, 1e-5, 1.5e-7, 123.456, -2.5e-300, 1e21, -7, 0.0001, 1 / 3])).toBe(
      "4adefce6c46886d9a0391b9a26d585ffcab0012c3c0a127e7eec278d77497646",
    );
  });

  it("keeps non-ASCII text raw instead of escaping it", () => {
    const text = canonicalJson({ 한국어: "日本語", mixed: "샘플 Young's modulus" });
    expect(text).toBe('{"mixed":"샘플 Young\'s modulus","한국어":"日本語"}');
    expect(sha256Hex(text)).toBe("ad7e532142495bcc1cdf1c94f7c701b95215375baf09655db00b68739fe54d5d");
  });

  it("refuses values JSON cannot hold", () => {
    for (const bad of [Number.NaN, Infinity, -Infinity, "\ud800", { k: () => 1 }, 10n])
      expect(() => canonicalJson(bad)).toThrow(FabenchError);
  });

  it("drops undefined object members as JSON.stringify does", () => {
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
  });
});

describe("compareCodePoints", () => {
  it("orders by code point where UTF-16 code units disagree", () => {
    const items = ["\u{1F600}", "\uffff", "a", "\ue000"];
    expect([...items].sort()).toEqual(["a", "\u{1F600}", "\ue000", "\uffff"]);
    expect([...items].sort(compareCodePoints)).toEqual(["a", "\ue000", "\uffff", "\u{1F600}"]);
  });

  it("puts a prefix before the longer string", () => {
    expect(compareCodePoints("v4-a", "v4-a-01")).toBeLessThan(0);
    expect(compareCodePoints("same", "same")).toBe(0);
  });
});

describe("the fast path of canonicalJson", () => {
  it("keeps array-index-like keys in code-point order, where JavaScript objects would not", () => {
    expect(canonicalJson({ a: 3, "10": 1, "2": 2 })).toBe('{"10":1,"2":2,"a":3}');
  });

  it("writes exactly what the exact writer writes, for arbitrary JSON values", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(canonicalJsonExact(value));
      }),
      { numRuns: 2000 },
    );
  });
});
