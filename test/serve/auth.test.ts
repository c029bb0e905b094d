/**
 * The bearer check compares a zero-padded copy of the token with the key in constant time, then the
 * lengths: only the exact key passes, whatever its length or alphabet.
 */
import { describe, expect, it } from "vitest";
import { bearerCheck, randomKey } from "../../src/serve/index.ts";

describe("bearerCheck", () => {
  it("accepts the key after the scheme in any case, with spaces around it", () => {
    const key = randomKey();
    const check = bearerCheck(key);
    for (const header of [`Bearer ${key}`, `bearer ${key}`, `BEARER   ${key}`, `Bearer ${key}  `])
      expect(check(header)).toBe(true);
  });

  it("refuses a prefix, an extension, padding bytes, another scheme, nothing and a long guess", () => {
    const key = "k3y-Ä-0123456789";
    const check = bearerCheck(key);
    expect(check(`Bearer ${key}`)).toBe(true);
    for (const header of [
      `Bearer ${key.slice(0, -1)}`,
      `Bearer ${key}x`,
      `Bearer ${key}\u0000`,
      `Basic ${key}`,
      `Bearer`,
      `Bearer `,
      "",
      undefined,
      `Bearer ${key}${"x".repeat(300)}`,
      `Bearer ${"x".repeat(300)}`,
      `Bearer ${key} ${key}`,
    ])
      expect(check(header)).toBe(false);
  });

  it("checks keys longer than the padded width whole", () => {
    const key = "a".repeat(400);
    const check = bearerCheck(key);
    expect(check(`Bearer ${key}`)).toBe(true);
    expect(check(`Bearer ${"a".repeat(399)}b`)).toBe(false);
    expect(check(`Bearer ${"a".repeat(399)}`)).toBe(false);
    expect(check(`Bearer ${"a".repeat(401)}`)).toBe(false);
  });

  it("gives each server its own check: one key does not open another", () => {
    const one = bearerCheck("first-key");
    const two = bearerCheck("second-key");
    expect(one("Bearer first-key")).toBe(true);
    expect(two("Bearer first-key")).toBe(false);
    expect(two("Bearer second-key")).toBe(true);
    expect(one("Bearer second-key")).toBe(false);
  });
});
