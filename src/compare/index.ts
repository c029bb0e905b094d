/** Comparing two runs: B − A per condition and catalog size with the summary's paired bootstrap, in text, HTML and JSON. */
export {
  checkComparable,
  comparabilityProblems,
  differingSettings,
  type NamedSummary,
} from "./comparable.ts";
export { compareSummaries, WHAT, type CompareInput } from "./compare.ts";
export { renderComparisonHtml } from "./html.ts";
export { pairEpisodes, type Pairing } from "./pairing.ts";
export { assignManifests, rankRows, summarizeRanks, type NamedManifest } from "./ranks.ts";
export {
  COMPARE_FORMAT,
  compareJsonSchema,
  comparisonSchema,
  type ComparedInterval,
  type Comparison,
  type MetricRow,
  type RankRow,
  type Side,
} from "./schema.ts";
export { renderComparison } from "./text.ts";
