/**
 * What `fabench gate` and `fabench report` read from a summary, checked before use: a summary that
 * was edited by hand or truncated is refused with its problems, never half-read.
 */
import { z } from "zod";
import { SUMMARY_FORMAT } from "./types.ts";

const interval = z.object({ point: z.number().nullable(), low: z.number().nullable(), high: z.number().nullable(), n: z.number().int().nonnegative() });
const aggregate = z.object({ episodes: z.number(), means: z.record(z.string(), z.number().nullable()), totals: z.record(z.string(), z.number()), malformed_reasons: z.record(z.string(), z.number()), infrastructure_errors: z.record(z.string(), z.number()) });

export const summaryShape = z.looseObject({
  format: z.literal(SUMMARY_FORMAT),
  complete: z.boolean(),
  protocol_id: z.string(),
  protocol_sha256: z.string().regex(/^[0-9a-f]{64}$/),
  run: z.looseObject({ agent: z.string(), corpus_tasks_sha256: z.string(), condition_manifest_sha256: z.string() }),
  episodes: z.number().int().nonnegative(),
  aggregates: z.record(z.string(), z.record(z.string(), aggregate)),
  bootstrap: z.looseObject({ iterations: z.number().int().positive(), seed: z.number(), confidence: z.number(), intervals: z.record(z.string(), interval) }),
  gate: z.looseObject({ status: z.enum(["PASS", "FAIL", "BLOCKED"]), conditions: z.record(z.string(), z.unknown()) }),
  episode_scores: z.array(z.unknown()),
});

