/**
 * Unit conversion through mathjs (a maintained units library), behind a small interface so pure
 * code (the content checker, the scorer) receives a converter instead of importing a library.
 * mathjs costs about a second to load, so it is loaded once, lazily, by `loadUnitConverter`.
 */
/** Spellings people and models write that mathjs does not parse as such. */
function mathjsLabel(label) {
    return label
        .trim()
        .replace(/[µμ]/g, "u")
        .replace(/²/g, "^2")
        .replace(/³/g, "^3")
        .replace(/°C/g, "degC")
        .replace(/°F/g, "degF")
        .replace(/%/g, "percent");
}
let loading;
export function loadUnitConverter() {
    loading ??= (async () => {
        const { create, all } = await import("mathjs");
        // A private instance, so the units we add never leak into anyone else's mathjs.
        const math = create(all ?? {}, {});
        math.createUnit({ ksi: "1000 psi", ppm: "1e-6", percent: "0.01", USD: {} }, { override: true });
        const cache = new Map();
        const unitOf = (label) => {
            if (!cache.has(label)) {
                try {
                    cache.set(label, math.unit(1, mathjsLabel(label)));
                }
                catch {
                    cache.set(label, null);
                }
            }
            return cache.get(label) ?? null;
        };
        // Labels mathjs parses with a number inside (`1/K`, `um/(m*K)`) share a base with others but
        // cannot be converted to; trying once, here, keeps a model's unusual label from crashing a score.
        const converts = new Map();
        const convertible = (from, to) => {
            const key = `${from}\u0000${to}`;
            if (!converts.has(key)) {
                const a = unitOf(from);
                const b = unitOf(to);
                let ok = a !== null && b !== null && a.equalBase(b);
                if (ok)
                    try {
                        math.unit(1, mathjsLabel(from)).toNumber(mathjsLabel(to));
                    }
                    catch {
                        ok = false;
                    }
                converts.set(key, ok);
            }
            return converts.get(key);
        };
        return {
            convertible,
            convert(value, from, to) {
                if (from === to)
                    return value;
                if (!convertible(from, to))
                    return null;
                return math.unit(value, mathjsLabel(from)).toNumber(mathjsLabel(to));
            },
        };
    })();
    return loading;
}
