/**
 * Small text helpers that must behave the same everywhere: code-point ordering (JavaScript's
 * default sort compares UTF-16 code units, Python compares code points) and line lookup.
 */
/**
 * Compares two strings by Unicode code point, like Python's `<` on `str`.
 * UTF-16 order differs from code-point order only when one string has a surrogate (an astral
 * character) where the other has a BMP character at or above U+E000; lifting surrogates above
 * that range at the first differing unit fixes the order without decoding.
 */
export function compareCodePoints(a, b) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
        const x = a.charCodeAt(i);
        const y = b.charCodeAt(i);
        if (x !== y)
            return liftSurrogate(x) - liftSurrogate(y);
    }
    return a.length - b.length;
}
function liftSurrogate(unit) {
    if (unit >= 0xd800 && unit <= 0xdfff)
        return unit + 0x2000;
    if (unit >= 0xe000)
        return unit - 0x800;
    return unit;
}
/** Sorted copy by code point. */
export function sortByCodePoint(items, key) {
    return [...items].sort((p, q) => compareCodePoints(key(p), key(q)));
}
/** Maps string offsets to 1-based line numbers with one pass over the text. */
export class LineIndex {
    starts = [0];
    constructor(text) {
        for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1))
            this.starts.push(i + 1);
    }
    /** 1-based line of a 0-based offset. */
    lineOf(offset) {
        let lo = 0;
        let hi = this.starts.length - 1;
        while (lo < hi) {
            const mid = (lo + hi + 1) >> 1;
            if ((this.starts[mid] ?? 0) <= offset)
                lo = mid;
            else
                hi = mid - 1;
        }
        return lo + 1;
    }
    /** 1-based column (in UTF-16 units) of a 0-based offset. */
    columnOf(offset) {
        return offset - (this.starts[this.lineOf(offset) - 1] ?? 0) + 1;
    }
}
