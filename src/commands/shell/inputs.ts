/**
 * The few inputs that are not the benchmark's frozen files (those are `src/world/`'s): a price
 * table, a coverage study and a summary, each checked against its schema (exit 2 on a problem).
 */
import { loadWithSchema, usageError } from "../../core/index.ts";
import { coverageStudySchema, type CoverageStudy } from "../../metrics/index.ts";
import { priceTableSchema, type Price } from "../../providers/index.ts";
import { SUMMARY_FORMAT, summarySchema, type Summary } from "../../summary/index.ts";

/** The price of the model an agent spec names (`kind:MODEL`), from a `--prices` table; null without one. */
export function loadPrice(path: string | undefined, spec: string): Price | null {
  if (path === undefined) return null;
  const table = loadWithSchema(path, "prices", priceTableSchema, "invalid_prices");
  const model = spec.slice(spec.indexOf(":") + 1);
  const price = table.models[model];
  if (!price) throw usageError("no_price", `${path} has no price for model ${model}`);
  return price;
}

/** A `fabench simulate coverage --json` output (its published schema), for the report's coverage footnote. */
export function readCoverageStudy(path: string): CoverageStudy {
  return loadWithSchema(path, "report", coverageStudySchema, "not_a_coverage_study");
}

/** A summary file, checked field by field against its published schema. */
export function readSummary(path: string): Summary {
  return loadWithSchema(path, "summary", summarySchema, "invalid_summary", SUMMARY_FORMAT);
}
