/**
 * The tool-search conditions (#34) a pilot made with `--with-search` declares beside the five
 * preregistered ones. The bundled preregistration never names them: a verdict over one is not
 * preregistered, and the plan and the preregistered conditions stay as they are.
 */
import type { ConditionSpec, Protocol } from "./protocol.ts";

/** K of every search condition: the most tool references one search returns. */
export const SEARCH_K = 5;

export const SEARCH_CONDITIONS: readonly ConditionSpec[] = [
  {
    id: "SEARCH-BM25",
    deployable: true,
    visibility: { kind: "search", engine: "bm25", k: SEARCH_K, executor: "fabench" },
  },
  {
    id: "SEARCH-REGEX",
    deployable: true,
    visibility: { kind: "search", engine: "regex", k: SEARCH_K, executor: "fabench" },
  },
  {
    id: "NATIVE-SEARCH-BM25",
    deployable: true,
    visibility: { kind: "search", engine: "bm25", k: SEARCH_K, executor: "provider" },
  },
  {
    id: "NATIVE-SEARCH-REGEX",
    deployable: true,
    visibility: { kind: "search", engine: "regex", k: SEARCH_K, executor: "provider" },
  },
];

/** The protocol with the search conditions appended (those it already declares are not repeated). */
export function withSearchConditions(protocol: Protocol): Protocol {
  const have = new Set(protocol.conditions.map((c) => c.id));
  return {
    ...protocol,
    conditions: [...protocol.conditions, ...SEARCH_CONDITIONS.filter((c) => !have.has(c.id))],
  };
}

/** A condition's search settings, or null when it is not a search condition. */
export function searchVisibility(
  condition: ConditionSpec,
): Extract<ConditionSpec["visibility"], { kind: "search" }> | null {
  return condition.visibility.kind === "search" ? condition.visibility : null;
}
