/**
 * Whether a successful call brought something back (§5): structural evidence only, never a judgement
 * of whether the content answers the task. The reference harness decides it the same way, so a
 * record of either runner says the same about the same reply.
 */

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function filled(value: unknown): boolean {
  return typeof value === "string" && value.trim() !== "";
}

/**
 * `result.data` when present, recursively: a non-blank string, a non-empty array or object, or any
 * other non-null scalar. Without `data`: a non-blank `truncated_content` or `full_content_file_url`
 * (a reply too large to inline), else any key at all.
 */
export function nonEmptyResult(result: unknown): boolean {
  if (result === null || result === undefined) return false;
  if (typeof result === "string") return result.trim() !== "";
  if (Array.isArray(result)) return result.length > 0;
  if (!isObject(result)) return true;
  if (Object.hasOwn(result, "data")) return nonEmptyResult(result["data"]);
  if (filled(result["truncated_content"]) || filled(result["full_content_file_url"])) return true;
  return Object.keys(result).length > 0;
}
