/**
 * The SIMD column summation (sum4.wat) as a drop-in for the JavaScript loop: same inputs, same
 * order of additions, same bits. Used when this runtime has WebAssembly SIMD, else null.
 */
import { SUM4_WASM_BASE64 } from "./sum4-wasm.ts";

/** The part of the WebAssembly API used here (Node has it; this project's types do not declare it). */
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
const WebAssembly = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let compiled: object | null | undefined;

function module(): object | null {
  if (compiled !== undefined) return compiled;
  try {
    const bytes = Buffer.from(SUM4_WASM_BASE64, "base64");
    compiled = WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
  } catch {
    compiled = null;
  }
  return compiled ?? null;
}

export interface Sum4 {
  readonly picked: Int32Array;
  readonly lookup: Float64Array;
  readonly columns: Float64Array;
  /** Sums lanes k0..k0+3 of `lookup` over every iteration into columns k0..k0+3 (extra lanes go nowhere). */
  run(k0: number, width: number): void;
}

/** A fresh instance with room for the draws, one interleaved lookup table and every column. */
export function createSum4(B: number, C: number, lookupRows: number, width: number): Sum4 | null {
  const m = module();
  if (!m) return null;
  const instance = new WebAssembly.Instance(m);
  const memory = instance.exports["memory"] as WasmMemory;
  const sum4 = instance.exports["sum4"] as (
    p: number,
    l: number,
    o0: number,
    o1: number,
    o2: number,
    o3: number,
    b: number,
    c: number,
  ) => void;
  const pickedBytes = B * C * 4;
  const lookupAt = align(pickedBytes);
  const columnsAt = align(lookupAt + lookupRows * 32);
  const scratchAt = align(columnsAt + width * B * 8);
  const total = scratchAt + B * 8;
  const pages = Math.ceil(total / 65536) - memory.buffer.byteLength / 65536;
  if (pages > 0) memory.grow(pages);
  const buffer = memory.buffer;
  const picked = new Int32Array(buffer, 0, B * C);
  const lookup = new Float64Array(buffer, lookupAt, lookupRows * 4);
  const columns = new Float64Array(buffer, columnsAt, width * B);
  return {
    picked,
    lookup,
    columns,
    run(k0, w) {
      const out = (j: number) => (k0 + j < w ? columnsAt + (k0 + j) * B * 8 : scratchAt);
      sum4(0, lookupAt, out(0), out(1), out(2), out(3), B, C);
    },
  };
}

function align(n: number): number {
  return Math.ceil(n / 16) * 16;
}
