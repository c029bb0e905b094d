/**
 * The files of a pilot folder (`fabench pilot init DIR`), by the option each one stands in for.
 * Light on purpose: the CLI reads it to resolve `--pilot DIR` without loading any schema.
 */
export const PILOT_FILES = {
  protocol: "preregistration.json",
  plan: "authoring-plan.json",
  corpus: "final-answer-corpus.json",
  manifest: "condition-manifest.json",
  conveyor: "conveyor.json",
  marker: "pilot.json",
} as const;
