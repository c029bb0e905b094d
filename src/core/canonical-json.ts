/**
 * Canonical JSON and SHA-256. Byte-compatible with Python's
 * `json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()` for strings,
 * integers, booleans, null, arrays, objects and non-integral floats. Integral floats are the one
 * documented hazard: Python writes `144.0`, JavaScript cannot tell 144.0 from 144 and writes `144`.
 */
import { createHash } from "node:crypto";
import { FabenchError } from "./errors.ts";
import { compareCodePoints } from "./text.ts";

export function canonicalJson(value: unknown): string {
  // Fast path: a copy with sorted keys through the native JSON.stringify, which already writes
  // what Python writes for everything but a few cases `sortedCopy` detects (then: the exact,
  // slower writer below, which also names the path of anything that cannot be written).
  const copy = sortedCopy(value);
  return copy === SLOW ? canonicalJsonExact(value) : JSON.stringify(copy);
}

/** The exact writer alone (tests compare it with the fast path). */
export function canonicalJsonExact(value: unknown): string {
  return write(value, []);
}

const SLOW = Symbol("slow");
/** Keys that JavaScript objects keep in numeric order ahead of all others, whatever we do. */
const ARRAY_INDEX_KEY = /^(?:0|[1-9]\d{0,9})$/;

function sortedCopy(value: unknown): unknown {
  if (value === null || typeof value === "boolean") return value;
  if (typeof value === "string") return value.isWellFormed() ? value : SLOW;
  if (typeof value === "number") {
    // Non-finite numbers, and magnitudes where JavaScript and Python format differently.
    if (!Number.isFinite(value) || Object.is(value, -0)) return SLOW;
    const magnitude = Math.abs(value);
    return magnitude >= 1e21 || (magnitude < 1e-4 && magnitude > 0 && !Number.isInteger(value))
      ? SLOW
      : value;
  }
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const item = sortedCopy(value[i]);
      if (item === SLOW || item === undefined) return SLOW;
      out[i] = item;
    }
    return out;
  }
  if (typeof value !== "object") return SLOW;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  keys.sort(compareCodePoints);
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    if (ARRAY_INDEX_KEY.test(key) || !key.isWellFormed()) return SLOW;
    const raw = record[key];
    if (raw === undefined) continue;
    const item = sortedCopy(raw);
    if (item === SLOW) return SLOW;
    out[key] = item;
  }
  return out;
}

/** Lowercase hex SHA-256 of bytes, or of a string's UTF-8 encoding. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** sha256(canonicalJson(value)). */
export function canonicalSha256(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

// `path` is a stack of keys, only turned into text when something cannot be written: building
// a path string for every value made hashing a 100,000-row corpus several times slower.
function write(value: unknown, path: Array<string | number>): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "number":
      return formatNumber(value, path);
    case "string":
      return formatString(value, path);
    case "object":
      return Array.isArray(value)
        ? writeArray(value, path)
        : writeObject(value as Record<string, unknown>, path);
    default:
      throw canonicalError(path, `a ${typeof value} has no JSON form`);
  }
}

function writeArray(items: readonly unknown[], path: Array<string | number>): string {
  let out = "[";
  for (let i = 0; i < items.length; i++) {
    path.push(i);
    out += (i > 0 ? "," : "") + write(items[i], path);
    path.pop();
  }
  return `${out}]`;
}

function writeObject(record: Record<string, unknown>, path: Array<string | number>): string {
  const keys = Object.keys(record).filter((k) => record[k] !== undefined);
  keys.sort(compareCodePoints);
  let out = "{";
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    path.push(key);
    out += `${i > 0 ? "," : ""}${formatString(key, path)}:${write(record[key], path)}`;
    path.pop();
  }
  return `${out}}`;
}

function formatString(s: string, path: Array<string | number>): string {
  // A lone surrogate cannot be encoded as UTF-8; Python refuses it too.
  if (!s.isWellFormed()) throw canonicalError(path, "string holds a lone surrogate");
  // JSON.stringify escapes exactly what Python escapes with ensure_ascii=False: the quote, the
  // backslash and C0 controls (\b \f \n \r \t short forms, \u00XX otherwise).
  return JSON.stringify(s);
}

function formatNumber(n: number, path: Array<string | number>): string {
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

function canonicalError(path: Array<string | number>, why: string): FabenchError {
  const where = `$${path.map((p) => (typeof p === "number" ? `[${p}]` : `.${p}`)).join("")}`;
  return new FabenchError({
    kind: "input",
    stage: "core",
    code: "not_canonical_json",
    message: `cannot write canonical JSON at ${where}: ${why}`,
  });
}

/**
 * Where a value holds a string or key that canonical JSON cannot write (a lone surrogate, which
 * UTF-8 cannot encode), as `$.path`; null when there is none. Iterative, so a reader can name the
 * file and line of the value before hashing it would fail without them.
 */
export function loneSurrogatePath(value: unknown): string | null {
  const stack: Array<[unknown, string]> = [[value, "$"]];
  while (stack.length > 0) {
    const [current, where] = stack.pop() as [unknown, string];
    if (typeof current === "string") {
      if (!current.isWellFormed()) return where;
    } else if (Array.isArray(current)) current.forEach((item, i) => stack.push([item, `${where}[${i}]`]));
    else if (typeof current === "object" && current !== null)
      for (const [key, item] of Object.entries(current)) {
        if (!key.isWellFormed()) return `${where} (a key)`;
        stack.push([item, `${where}.${key}`]);
      }
  }
  return null;
}
