/**
 * JSON from outside parties, bounded before anything recursive sees it. V8's JSON.parse is
 * iterative, but JSON.stringify, canonical hashing, zod, the token counter and every tree walk are
 * not: a value nested 100,000 deep overflows the stack in the first of them that it reaches. So
 * nesting is checked by a linear scan of the text before it is parsed (or, for a value an SDK
 * already parsed, by an iterative walk), and a number JSON.parse turns into ±Infinity (`1e309`)
 * is found rather than recorded later as `null`.
 *
 * Two limits. MAX_JSON_DEPTH bounds one value an outside party hands over: an agent's reply, tool
 * arguments, a router's or a judge's reply, an observation in a corpus; the deepest observation
 * bundled nests 10 levels. A file fabench reads wraps such values in a few levels of its own (a run
 * record holds tool arguments 5 levels down, a corpus its observations 6 levels down), so a whole
 * file may nest to MAX_FILE_JSON_DEPTH: whatever was accepted once can always be read back.
 */

/** The deepest nesting of arrays and objects accepted in one value from outside (as `serve` uses). */
export const MAX_JSON_DEPTH = 64;

/** The deepest nesting accepted in a whole file: its own structure around values bounded by MAX_JSON_DEPTH. */
export const MAX_FILE_JSON_DEPTH = 2 * MAX_JSON_DEPTH;

/**
 * The offset of the first `[` or `{` that opens a level deeper than `max` (outside strings), or -1.
 * Linear, no recursion; meant to run before JSON.parse, on any text, valid JSON or not.
 */
export function depthBreach(text: string, max: number): number {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string: its end is the next quote not escaped, i.e. not after an odd run of
      // backslashes (a backslash escapes the next character, whatever it is). The native indexOf
      // jumps over the text between quotes, most of a run file's bytes (#35).
      let end = i;
      for (;;) {
        end = text.indexOf('"', end + 1);
        if (end === -1) return -1; // an unterminated string: the rest is inside it
        let before = end - 1;
        while (text.charCodeAt(before) === 0x5c) before--;
        if ((end - 1 - before) % 2 === 0) break;
      }
      i = end;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > max) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return -1;
}

/** Whether arrays and objects nest deeper than `max` (iterative: the check itself cannot overflow). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (typeof current !== "object" || current === null) continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current))
      stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * Whether a parsed value holds a number JSON cannot write back (±Infinity from `1e309`, NaN):
 * JSON.stringify would record it as `null`. Iterative; the value must already be depth-checked
 * only for speed, not for safety.
 */
export function hasNonFiniteNumber(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === "number") {
      if (!Number.isFinite(current)) return true;
    } else if (typeof current === "object" && current !== null)
      for (const child of Array.isArray(current) ? current : Object.values(current)) stack.push(child);
  }
  return false;
}

export type BoundedJson =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly reason: "too_deep"; readonly offset: number }
  | { readonly ok: false; readonly reason: "invalid" };

/** JSON.parse behind the depth scan: text nested deeper than `maxDepth` is never parsed. */
export function parseBoundedJson(text: string, maxDepth: number = MAX_JSON_DEPTH): BoundedJson {
  // V8's JSON.parse is iterative (any depth parses without growing the stack); what must never see
  // deep input are the recursive steps after it. Syntax first, so garbage full of brackets is
  // reported as not JSON rather than as too deep.
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return { ok: false, reason: "invalid" };
  }
  const offset = depthBreach(text, maxDepth);
  return offset === -1 ? { ok: true, value } : { ok: false, reason: "too_deep", offset };
}
