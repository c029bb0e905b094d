/**
 * The unit converter loads mathjs from its single-file build (one file instead of 1,262 modules).
 * That build must convert exactly as the ES modules do: every pair of the unit table's expressions,
 * at several magnitudes, gives the same number (or the same refusal) from both.
 */
import { createRequire } from "node:module";
import * as modules from "mathjs";
import { describe, expect, it } from "vitest";
import { UNIT_TABLE } from "../../src/core/unit-table.ts";

type MathJs = typeof modules;

describe("mathjs's single-file build", () => {
  // About 9,400 pairs through two parsers: room on a busy machine (a limit, not a timing).
  it("converts every pair of the unit table exactly as the ES modules do", { timeout: 180_000 }, () => {
    const single = createRequire(import.meta.url)("mathjs/lib/browser/math.js") as MathJs;
    const instances = [modules.create(modules.all ?? {}, {}), single.create({}, {})];
    for (const math of instances)
      math.createUnit({ ksi: "1000 psi", ppm: "1e-6", percent: "0.01", USD: {} }, { override: true });
    const expressions = [...new Set(UNIT_TABLE.flatMap((e) => (e.mathjs === null ? [] : [e.mathjs])))];
    const values = [1, -3.7, 273.15, 6.02e23];
    const convert = (math: modules.MathJsInstance, from: string, to: string) =>
      values.map((v) => {
        try {
          return (math.unit(v, from) as modules.Unit).toNumber(to);
        } catch (error) {
          return `refused: ${(error as Error).message}`;
        }
      });
    let pairs = 0;
    for (const from of expressions)
      for (const to of expressions) {
        const [a, b] = instances.map((math) => convert(math, from, to));
        if (JSON.stringify(a) !== JSON.stringify(b))
          expect({ from, to, single: b }).toEqual({ from, to, single: a });
        pairs++;
      }
    expect(expressions.length).toBeGreaterThan(50);
    expect(pairs).toBe(expressions.length ** 2);
  });
});
