/**
 * The regex search: a Python `re.search` pattern (at most 200 characters, as Anthropic's
 * `tool_search_tool_regex_20251119`) matched against each search field of each endpoint; a match
 * in any field is a hit. Case-sensitive unless the pattern starts with `(?i)` — Anthropic's own
 * examples give `"(?i)slack"` for a case-insensitive search, so the default is `re.search`'s.
 * Ranking: by the best field matched — function name, then description, then an argument name,
 * then an argument description — then route id ascending. Python syntax is translated, not
 * trusted: see regex-parse.ts (what is accepted), regex-js.ts (why it is the same language) and
 * regex-check.ts (why backtracking is bounded).
 */
import { compareCodePoints } from "../../core/index.ts";
import type { Endpoint } from "../catalog/index.ts";
import { FIELD_RANK, searchFields } from "./fields.ts";
import { describedHit } from "./hits.ts";
import { PatternRefusal } from "./regex-ast.ts";
import { checkPattern, trimEdgeRepeats } from "./regex-check.ts";
import { toRegExp } from "./regex-js.ts";
import { parsePythonPattern } from "./regex-parse.ts";
import type { CatalogSearch, SearchOutcome } from "./types.ts";

/** The longest pattern accepted, in characters (code points, as Python's `len`). */
export const MAX_PATTERN_LENGTH = 200;

type Compiled = { ok: true; regexp: RegExp } | { ok: false; message: string };

/** Parses, checks and translates a pattern; `longestField` bounds backtracking (regex-check.ts). */
export function compilePythonPattern(pattern: string, longestField: number): Compiled {
  try {
    const parsed = trimEdgeRepeats(parsePythonPattern(pattern));
    checkPattern(parsed, longestField);
    return { ok: true, regexp: toRegExp(parsed) };
  } catch (e) {
    if (e instanceof PatternRefusal) return { ok: false, message: e.message };
    throw e;
  }
}

export function regexSearch(endpoints: readonly Endpoint[]): CatalogSearch {
  const indexed = endpoints.map((endpoint) => ({ endpoint, fields: searchFields(endpoint) }));
  const longestField = Math.max(0, ...indexed.flatMap((e) => e.fields.map((f) => [...f.text].length)));
  return {
    engine: "regex",
    search(pattern: string, k: number): SearchOutcome {
      if (pattern === "") return { ok: false, code: "empty_query", message: "the pattern is empty" };
      const length = [...pattern].length;
      if (length > MAX_PATTERN_LENGTH)
        return {
          ok: false,
          code: "pattern_too_long",
          message: `the pattern has ${length} characters; at most ${MAX_PATTERN_LENGTH}`,
        };
      const compiled = compilePythonPattern(pattern, longestField);
      if (!compiled.ok) return { ok: false, code: "invalid_pattern", message: compiled.message };
      const matches: Array<{ endpoint: Endpoint; rank: number }> = [];
      for (const { endpoint, fields } of indexed) {
        const ranks = fields.filter((f) => compiled.regexp.test(f.text)).map((f) => FIELD_RANK[f.kind]);
        if (ranks.length > 0) matches.push({ endpoint, rank: Math.min(...ranks) });
      }
      matches.sort((a, b) => a.rank - b.rank || compareCodePoints(a.endpoint.route_id, b.endpoint.route_id));
      return { ok: true, hits: matches.slice(0, Math.max(0, k)).map((m) => describedHit(m.endpoint)) };
    },
  };
}
