/**
 * RFC 6901 JSON pointers: where a value lives inside a JSON document. The scorer's side of a task
 * names each fact's place in the evidence this way; the executor reads revealed ids with them.
 */

/** The reference tokens of `pointer` (`~1` is `/`, `~0` is `~`), or null when it is not a pointer. */
export function pointerTokens(pointer: string): string[] | null {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) return null;
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** The pointer of a path of tokens (the inverse of `pointerTokens`). */
export function pointerOf(tokens: readonly (string | number)[]): string {
  return tokens.map((t) => `/${String(t).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

/** What `pointer` names in `document`: `{found: true, value}` or `{found: false}`. */
export function resolvePointer(
  document: unknown,
  pointer: string,
): { readonly found: true; readonly value: unknown } | { readonly found: false } {
  const tokens = pointerTokens(pointer);
  if (tokens === null) return { found: false };
  let current: unknown = document;
  for (const token of tokens) {
    if (Array.isArray(current)) {
      // An array index is a decimal without leading zeros ("0", "12"), never "-" or "01".
      if (!/^(0|[1-9]\d*)$/.test(token)) return { found: false };
      const index = Number(token);
      if (index >= current.length) return { found: false };
      current = current[index];
    } else if (typeof current === "object" && current !== null) {
      if (!Object.hasOwn(current, token)) return { found: false };
      current = (current as Record<string, unknown>)[token];
    } else return { found: false };
  }
  return { found: true, value: current };
}
