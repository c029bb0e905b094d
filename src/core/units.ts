/**
 * Unit conversion through mathjs (a maintained units library), behind a small interface so pure
 * code (the content checker, the scorer) receives a converter instead of importing a library.
 * Every label is first resolved through the unit table (`unit-table.ts`): the table says which
 * spellings are one unit and what mathjs needs to convert it, so `°C`, `℃`, `degC` and `deg C`
 * all reach mathjs as `degC`. mathjs costs time to load, so it is loaded once, lazily, by
 * `loadUnitConverter`, whose converter creates its mathjs instance only when a
 * conversion needs it — and from the single-file build mathjs publishes (lib/browser/math.js, the
 * same code compiled into one UMD module) rather than its ES modules, which are 1,262 files to
 * resolve and compile (2–3 s on a busy machine, against about 0.3 s for the one file).
 */
import { createRequire } from "node:module";
import { resolveUnit, sameUnit } from "./unit-table.ts";

export interface ConvertOptions {
  /**
   * The value is a difference (a temperature rise, a spread): convert the size of the step and
   * leave out the scale's offset, so 5 K is 5 °C and 9 °F, not −268.15 °C.
   */
  readonly difference?: boolean;
}

export interface UnitConverter {
  /** `value` in `from` expressed in `to`, or null when either label is unknown or the dimensions differ. */
  convert(value: number, from: string, to: string, options?: ConvertOptions): number | null;
  /** Whether a label converts to another (the same unit up to spelling, or same dimension and both known). */
  convertible(from: string, to: string): boolean;
}

/** Difference conversions read the scale from two points this far apart, which keeps float error negligible. */
const DIFFERENCE_SPAN = 1e6;

let loading: Promise<UnitConverter> | undefined;

type MathJs = typeof import("mathjs");

/**
 * Required, not imported: node's ES-module import of a CommonJS file first scans all of its 650 kB
 * for named exports (about half a second), which `require` does not. The single-file build has no
 * type declarations of its own; it is the same API as "mathjs".
 */
function loadMathjs(): Pick<MathJs, "create"> {
  return createRequire(import.meta.url)("mathjs/lib/browser/math.js") as MathJs;
}

export function loadUnitConverter(): Promise<UnitConverter> {
  loading ??= (async () => {
    type Unit = import("mathjs").Unit;
    // A private instance, so the units we add never leak into anyone else's mathjs. The single-file
    // build's `create` holds every factory already (it exports no `all`); a test checks that it
    // converts every pair of the unit table exactly as the ES modules' `create(all)` does.
    // Made on the first conversion that needs it: a run whose answers use the gold's own unit
    // labels (the reference agent's, a demo's) never needs it, and mathjs is a large part of
    // `score`'s start (#35).
    let instance: ReturnType<MathJs["create"]> | undefined;
    const mathjs = () => {
      if (instance === undefined) {
        instance = loadMathjs().create({}, {});
        instance.createUnit({ ksi: "1000 psi", ppm: "1e-6", percent: "0.01", USD: {} }, { override: true });
      }
      return instance;
    };
    const cache = new Map<string, Unit | null>();
    const unitOf = (expression: string): Unit | null => {
      if (!cache.has(expression)) {
        try {
          cache.set(expression, mathjs().unit(1, expression) as Unit);
        } catch {
          cache.set(expression, null);
        }
      }
      return cache.get(expression) ?? null;
    };
    // Expressions mathjs parses with a number inside (`1/K`, `um/(m*K)`) share a base with others
    // but cannot be converted to; trying once, here, keeps a model's unusual label from crashing a score.
    const converts = new Map<string, boolean>();
    const mathjsConvertible = (from: string, to: string): boolean => {
      const key = `${from}\u0000${to}`;
      if (!converts.has(key)) {
        const a = unitOf(from);
        const b = unitOf(to);
        let ok = a !== null && b !== null && a.equalBase(b);
        if (ok)
          try {
            (mathjs().unit(1, from) as Unit).toNumber(to);
          } catch {
            ok = false;
          }
        converts.set(key, ok);
      }
      return converts.get(key) as boolean;
    };
    const expressions = (from: string, to: string): [string, string] | null => {
      const a = resolveUnit(from).mathjs;
      const b = resolveUnit(to).mathjs;
      return a === null || b === null || !mathjsConvertible(a, b) ? null : [a, b];
    };
    const raw = (value: number, from: string, to: string) =>
      (mathjs().unit(value, from) as Unit).toNumber(to);
    return {
      convertible: (from, to) => sameUnit(from, to) || expressions(from, to) !== null,
      convert(value, from, to, options) {
        if (sameUnit(from, to)) return value;
        const pair = expressions(from, to);
        if (pair === null) return null;
        const [a, b] = pair;
        if (!options?.difference) return raw(value, a, b);
        // Only °C and °F carry an offset; for every other unit zero is zero and this is the plain factor.
        const zero = raw(0, a, b);
        if (zero === 0) return raw(value, a, b);
        return (value * (raw(DIFFERENCE_SPAN, a, b) - zero)) / DIFFERENCE_SPAN;
      },
    };
  })();
  return loading;
}
