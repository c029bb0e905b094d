export function sameSet(a, b) {
    const x = new Set(a);
    const y = new Set(b);
    return x.size === y.size && [...x].every((v) => y.has(v));
}
export function list(values) {
    const items = [...values];
    return items.length === 0 ? "none" : items.join(", ");
}
