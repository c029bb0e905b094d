/** The model lanes a run declares (a light module: the CLI reads it to parse options without loading any SDK). */
export const LANES = ["configured-model", "pinned-model", "current-model"] as const;
export type Lane = (typeof LANES)[number];
