/**
 * The SIMD column summation (sum4.wat) as a drop-in for the JavaScript loop: same inputs, same
 * order of additions, same bits. Used when this runtime has WebAssembly SIMD, else null.
 */
import { SUM4_WASM_BASE64 } from "./sum4-wasm.js";
const WebAssembly = globalThis.WebAssembly;
let compiled;
function module() {
    if (compiled !== undefined)
        return compiled;
    try {
        const bytes = Buffer.from(SUM4_WASM_BASE64, "base64");
        compiled = WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
    }
    catch {
        compiled = null;
    }
    return compiled ?? null;
}
/** A fresh instance with room for the draws, one interleaved lookup table and every column. */
export function createSum4(B, C, lookupRows, width) {
    const m = module();
    if (!m)
        return null;
    const instance = new WebAssembly.Instance(m);
    const memory = instance.exports["memory"];
    const sum4 = instance.exports["sum4"];
    const pickedBytes = B * C * 4;
    const lookupAt = align(pickedBytes);
    const columnsAt = align(lookupAt + lookupRows * 32);
    const scratchAt = align(columnsAt + width * B * 8);
    const total = scratchAt + B * 8;
    const pages = Math.ceil(total / 65536) - memory.buffer.byteLength / 65536;
    if (pages > 0)
        memory.grow(pages);
    const buffer = memory.buffer;
    const picked = new Int32Array(buffer, 0, B * C);
    const lookup = new Float64Array(buffer, lookupAt, lookupRows * 4);
    const columns = new Float64Array(buffer, columnsAt, width * B);
    return {
        picked,
        lookup,
        columns,
        run(k0, w) {
            const out = (j) => (k0 + j < w ? columnsAt + (k0 + j) * B * 8 : scratchAt);
            sum4(0, lookupAt, out(0), out(1), out(2), out(3), B, C);
        },
    };
}
function align(n) {
    return Math.ceil(n / 16) * 16;
}
