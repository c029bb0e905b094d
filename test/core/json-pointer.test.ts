import { describe, expect, it } from "vitest";
import { pointerOf, pointerTokens, resolvePointer } from "../../src/core/index.ts";

describe("RFC 6901 JSON pointers", () => {
  // The RFC's own example document (section 5).
  const doc = {
    foo: ["bar", "baz"],
    "": 0,
    "a/b": 1,
    "c%d": 2,
    "e^f": 3,
    "g|h": 4,
    "i\\j": 5,
    'k"l': 6,
    " ": 7,
    "m~n": 8,
  };

  it("resolves every example of RFC 6901 section 5", () => {
    const cases: [string, unknown][] = [
      ["", doc],
      ["/foo", ["bar", "baz"]],
      ["/foo/0", "bar"],
      ["/", 0],
      ["/a~1b", 1],
      ["/c%d", 2],
      ["/e^f", 3],
      ["/g|h", 4],
      ["/i\\j", 5],
      ['/k"l', 6],
      ["/ ", 7],
      ["/m~0n", 8],
    ];
    for (const [pointer, value] of cases)
      expect(resolvePointer(doc, pointer), pointer).toEqual({ found: true, value });
  });

  it("finds nothing past the end, at a bad index, under a scalar, or for a string that is not a pointer", () => {
    for (const pointer of ["/foo/2", "/foo/01", "/foo/-", "/foo/0/x", "/missing", "foo"])
      expect(resolvePointer(doc, pointer), pointer).toEqual({ found: false });
    expect(resolvePointer({ a: null }, "/a")).toEqual({ found: true, value: null });
  });

  it("round-trips tokens through pointerOf", () => {
    const tokens = ["rows", "3", "a/b", "m~n"];
    expect(pointerOf(tokens)).toBe("/rows/3/a~1b/m~0n");
    expect(pointerTokens(pointerOf(tokens))).toEqual(tokens);
    expect(pointerTokens("x")).toBeNull();
  });
});
