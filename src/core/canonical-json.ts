/**
 * Canonical JSON and SHA-256 (DESIGN §3). Byte-compatible with Python's
 * `json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()` for strings,
 * integers, booleans, null, arrays, objects and non-integral floats. Integral floats are the one
 * documented hazard: Python writes `144.0`, JavaScript cannot tell 144.0 from 144 and writes `144`.
 */
import { createHash } from "node:crypto";
import { FabenchError } from "./errors.ts";
import { compareCodePoints } from "./text.ts";

export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  write(value, out, "$");
  return out.join("");
}

/** Lowercase hex SHA-256 of bytes, or of a string's UTF-8 encoding. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** sha256(canonicalJson(value)). */
export function canonicalSha256(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

function write(value: unknown, out: string[], path: string): void {
  if (value === null) out.push("null");
  else if (typeof value === "boolean") out.push(value ? "true" : "false");
  else if (typeof value === "number") out.push(formatNumber(value, path));
  else if (typeof value === "string") out.push(formatString(value, path));
  else if (Array.isArray(value)) {
    out.push("[");
    value.forEach((item, i) => {
      if (i > 0) out.push(",");
      write(item, out, `${path}[${i}]`);
    });
    out.push("]");
  } else if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => compareCodePoints(a, b));
    out.push("{");
    entries.forEach(([k, v], i) => {
      if (i > 0) out.push(",");
      out.push(formatString(k, path), ":");
      write(v, out, `${path}.${k}`);
    });
    out.push("}");
  } else {
    throw canonicalError(path, `a ${typeof value} has no JSON form`);
  }
}

function formatString(s: string, path: string): string {
  // A lone surrogate cannot be encoded as UTF-8; Python refuses it too.
  if (!s.isWellFormed()) throw canonicalError(path, "string holds a lone surrogate");
  // JSON.stringify escapes exactly what Python escapes with ensure_ascii=False: the quote, the
  // backslash and C0 controls (\b \f \n \r \t short forms, \u00XX otherwise).
  return JSON.stringify(s);
}

function formatNumber(n: number, path: string): string {
  if (!Number.isFinite(n)) throw canonicalError(path, `${n} is not a JSON number`);
  if (Number.isInteger(n)) {
    // Python prints integers in full; JavaScript switches to 1e+21 form at 1e21.
    return Math.abs(n) < 1e21 ? String(n === 0 ? 0 : n) : BigInt(n).toString();
  }
  // Non-integral doubles are below 2^52 in magnitude, so only small magnitudes can differ:
  // Python's repr switches to exponent form below 1e-4 with at least two exponent digits.
  if (Math.abs(n) < 1e-4) {
    const [mantissa, exponent = ""] = n.toExponential().split("e");
    const sign = exponent.startsWith("-") ? "-" : "+";
    const digits = exponent.replace(/^[+-]/, "").padStart(2, "0");
    return `${mantissa}e${sign}${digits}`;
  }
  return String(n);
}

function canonicalError(path: string, why: string): FabenchError {
  return new FabenchError({
    kind: "input",
    stage: "core",
    code: "not_canonical_json",
    message: `cannot write canonical JSON at ${path}: ${why}`,
  });
}
