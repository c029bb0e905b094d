/**
 * A summary read quickly (#35): its 1,440 episode scores are most of what zod does when `gate` or
 * `report` reads it. Each episode score passes a hand-written check (a quick check: only what the
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

/** The summary when its episode scores pass the quick check and the rest passes zod; null: ask zod about all of it. */
export function quickSummary(value: unknown): Summary | null {
  if (!isObject(value)) return null;
  const scores = value["episode_scores"];
  if (!Array.isArray(scores) || !scores.every(episode)) return null;
  const head = summarySchema.safeParse({ ...value, episode_scores: [] });
  if (!head.success) return null;
  for (const score of scores) Object.freeze(score.facts);
  return { ...head.data, episode_scores: scores as Summary["episode_scores"] };
}
