/**
 * Unit conversion through mathjs (a maintained units library), behind a small interface so pure
 * code (the content checker, the scorer) receives a converter instead of importing a library.
 * mathjs costs about a second to load, so it is loaded once, lazily, by `loadUnitConverter`.
 */

export interface UnitConverter {
  /** `value` in `from` expressed in `to`, or null when either label is unknown or the dimensions differ. */
  convert(value: number, from: string, to: string): number | null;
  /** Whether a label converts to another (same dimension, both known). */
  convertible(from: string, to: string): boolean;
}

/** Spellings people and models write that mathjs does not parse as such. */
function mathjsLabel(label: string): string {
  return label
    .trim()
    .replace(/[µμ]/g, "u")
    .replace(/²/g, "^2")
    .replace(/³/g, "^3")
    .replace(/°C/g, "degC")
    .replace(/°F/g, "degF")
    .replace(/%/g, "percent");
}

let loading: Promise<UnitConverter> | undefined;

export function loadUnitConverter(): Promise<UnitConverter> {
  loading ??= (async () => {
    const { create, all } = await import("mathjs");
    type Unit = import("mathjs").Unit;
    // A private instance, so the units we add never leak into anyone else's mathjs.
    const math = create(all ?? {}, {});
    math.createUnit({ ksi: "1000 psi", ppm: "1e-6", percent: "0.01", USD: {} }, { override: true });
    const cache = new Map<string, Unit | null>();
    const unitOf = (label: string): Unit | null => {
      if (!cache.has(label)) {
        try {
          cache.set(label, math.unit(1, mathjsLabel(label)) as Unit);
        } catch {
          cache.set(label, null);
        }
      }
      return cache.get(label) ?? null;
    };
    // Labels mathjs parses with a number inside (`1/K`, `um/(m*K)`) share a base with others but
    // cannot be converted to; trying once, here, keeps a model's unusual label from crashing a score.
    const converts = new Map<string, boolean>();
    const convertible = (from: string, to: string): boolean => {
      const key = `${from}\u0000${to}`;
      if (!converts.has(key)) {
        const a = unitOf(from);
        const b = unitOf(to);
        let ok = a !== null && b !== null && a.equalBase(b);
        if (ok)
          try {
            (math.unit(1, mathjsLabel(from)) as Unit).toNumber(mathjsLabel(to));
          } catch {
            ok = false;
          }
        converts.set(key, ok);
      }
      return converts.get(key) as boolean;
    };
    return {
      convertible,
      convert(value, from, to) {
        if (from === to) return value;
        if (!convertible(from, to)) return null;
        return (math.unit(value, mathjsLabel(from)) as Unit).toNumber(mathjsLabel(to));
      },
    };
  })();
  return loading;
}
