/**
 * The few inputs that are not the benchmark's frozen files (those are `src/world/`'s): a coverage
 * study and a summary, each checked against its schema (exit 2 on a problem). The price table is
 * prices.ts's: it comes with the providers, which `score`, `gate` and `report` must not load.
 */
import { loadWithSchema } from "../../core/index.ts";
import { coverageStudySchema, type CoverageStudy } from "../../metrics/index.ts";
import { quickSummary, SUMMARY_FORMAT, summarySchema, type Summary } from "../../summary/index.ts";

/** A `fabench simulate coverage --json` output (its published schema), for the report's coverage footnote. */
export function readCoverageStudy(path: string): CoverageStudy {
  return loadWithSchema(path, "report", coverageStudySchema, "not_a_coverage_study");
}

/** A summary file, checked field by field against its published schema (its episode scores by the quick check first). */
export function readSummary(path: string): Summary {
  return loadWithSchema(path, "summary", summarySchema, "invalid_summary", SUMMARY_FORMAT, quickSummary);
}
