/** Deep equality of JSON values, shared by the executor's rules and the scorer. */
/** Deep equality of JSON values: strings exact (no trimming or case change), object key order ignored. */
export function jsonEqual(a, b) {
    if (a === b)
        return true;
    if (typeof a !== "object" || typeof b !== "object" || a === null || b === null)
        return false;
    if (Array.isArray(a) || Array.isArray(b)) {
        if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length)
            return false;
        return a.every((item, i) => jsonEqual(item, b[i]));
    }
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    const rb = b;
    return (ka.length === kb.length &&
        ka.every((k) => Object.hasOwn(rb, k) && jsonEqual(a[k], rb[k])));
}
