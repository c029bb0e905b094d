/**
 * A summary read quickly (#35): its 1,440 episode scores (and its hundreds of intervals) are most
 * of what zod does when `gate` or `report` reads it. Each passes a hand-written check (a quick check: only what the
 * schema accepts and would return unchanged) and the rest of the summary goes through zod as
 * before; when anything is not sure, the caller parses the whole file with zod, which words every
 * refusal. The value is the one zod would give (the facts arrays frozen, as `.readonly()` makes them).
 */
import {
  quickArrayOf as arrayOf,
  quickInt as int,
  quickIsObject as isObject,
  quickNonnegative as nonnegative,
  quickNullable as nullable,
  quickNum as num,
  quickOneOf as oneOf,
  quickPlainRecord as plainRecord,
  quickPositive as positive,
  quickStr as str,
  quickStrict as strict,
} from "../core/index.ts";
import { summarySchema, type Summary } from "./schema.ts";

const episodeShape = summarySchema.shape.episode_scores.element;
const bool = oneOf(true, false);

const fact = strict(episodeShape.shape.facts, {
  index: nonnegative,
  key: str,
  licensed: bool,
  value_ok: nullable(bool),
  unit_ok: nullable(bool),
  source_ok: nullable(bool),
  duplicate: bool,
  contradicts: bool,
  reason: str,
});

const episode = strict(episodeShape, {
  semantic_task_id: str,
  answer_task_stratum: str,
  language: str,
  catalog_size: int,
  condition: str,
  trial: positive,
  status: oneOf(...episodeShape.shape.status.options),
  error_code: nullable(str),
  malformed_reason: nullable(str),
  metrics: plainRecord(nullable(num)),
  facts: arrayOf(fact),
});

const bootstrapShape = summarySchema.shape.bootstrap.shape;
const intervalShape = bootstrapShape.intervals.valueType;
const calibratedShape = intervalShape.shape.calibrated.unwrap();
const bound = nullable(num);
const bounds = (schema: unknown) => strict(schema, { low: bound, high: bound });
const interval = strict(
  intervalShape,
  {
    point: bound,
    low: bound,
    high: bound,
    n: nonnegative,
    calibrated: strict(calibratedShape, {
      se: bound,
      df: bound,
      percentile_widened: bounds(calibratedShape.shape.percentile_widened),
      bootstrap_t: strict(calibratedShape.shape.bootstrap_t, {
        low: bound,
        high: bound,
        n: nonnegative,
        degenerate: nonnegative,
        infinite: nonnegative,
      }),
      t_stratified: bounds(calibratedShape.shape.t_stratified),
      skew_t: bounds(calibratedShape.shape.skew_t),
    }),
  },
  ["calibrated"],
);
const breakdownsShape = summarySchema.shape.breakdowns;
const breakdown = strict(breakdownsShape.shape.by_language.valueType, {
  tasks: nonnegative,
  levels: plainRecord(plainRecord(bound)),
  deltas: plainRecord(plainRecord(bound)),
  delta_intervals: plainRecord(plainRecord(interval)),
});
const breakdowns = strict(breakdownsShape, {
  by_language: plainRecord(breakdown),
  by_stratum: plainRecord(breakdown),
});
const EMPTY_BREAKDOWNS = { by_language: {}, by_stratum: {} };

/**
 * The summary when its episode scores, intervals and breakdowns pass the quick checks and the rest
 * passes zod; null: ask zod about all of it.
 */
export function quickSummary(value: unknown): Summary | null {
  if (!isObject(value)) return null;
  const scores = value["episode_scores"];
  const boot = value["bootstrap"];
  if (!Array.isArray(scores) || !scores.every(episode) || !isObject(boot)) return null;
  const intervals = boot["intervals"];
  if (!plainRecord(interval)(intervals) || !breakdowns(value["breakdowns"])) return null;
  // The rest through zod, with what was checked above left out in place (same keys, same order).
  const head = summarySchema.safeParse({
    ...value,
    bootstrap: { ...boot, intervals: {} },
    breakdowns: EMPTY_BREAKDOWNS,
    episode_scores: [],
  });
  if (!head.success) return null;
  for (const score of scores) Object.freeze(score.facts);
  return {
    ...head.data,
    bootstrap: { ...head.data.bootstrap, intervals: intervals as Summary["bootstrap"]["intervals"] },
    breakdowns: value["breakdowns"] as Summary["breakdowns"],
    episode_scores: scores as Summary["episode_scores"],
  };
}
