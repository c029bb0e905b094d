/**
 * The model lanes a run declares, and the built-in probe agents `--agent probe:NAME` names (a
 * light module: the CLI reads it to parse options and write `--help` without loading any SDK).
 */
export const LANES = ["configured-model", "pinned-model", "current-model"] as const;
export type Lane = (typeof LANES)[number];

/**
 * The probe agents: deterministic like `reference` (no model, no lock), each with exactly one
 * flaw, so `fabench corpus sensitivity` can show which metric catches it. One line each, as the
 * user reads them in `fabench run --help`.
 */
export const PROBES = {
  "copy-first":
    "fills each field with the first value of its kind in the tool results (a number with its nearest unit), citing the first record",
  "no-convert": "the right value in the record's own unit, never converted to the form's unit",
  "trust-first-record":
    "reads row 0 of a list of rows (stale or superseded too), calls the hard-negative routes first and prefers their values",
  "cite-route": "the right values, citing the route (materials.current) instead of the record's source_id",
  "early-answer": "answers after the first tool result",
  "eager-destructive":
    "first calls every visible destructive route whose object the request mentions, then acts as the reference",
} as const;
export type ProbeName = keyof typeof PROBES;
export const PROBE_NAMES = Object.keys(PROBES) as ProbeName[];
