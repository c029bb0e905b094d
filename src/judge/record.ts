/**
 * One JSON line per judged episode (`fabench-judgment/v1`). The episode's key joins it to its run
 * record later and is never sent to the judge; `answer_sha256` pins the exact answer text that was
 * rated, so a judgment cannot be joined to another run's answer by accident.
 */
import { z } from "zod";

export const JUDGMENT_FORMAT = "fabench-judgment/v1";

const sha = z.string().regex(/^[0-9a-f]{64}$/);

/** Why an episode has no ratings. `not_judged`: nothing was sent (the episode has no answer to rate). */
export const JUDGMENT_STATUSES = ["judged", "malformed", "not_judged", "error"] as const;

export const episodeKeySchema = z.strictObject({
  semantic_task_id: z.string().min(1),
  catalog_size: z.number().int(),
  condition: z.string().min(1),
  trial: z.number().int().positive(),
});

export const judgmentSchema = z.strictObject({
  format: z.literal(JUDGMENT_FORMAT),
  episode: episodeKeySchema,
  /** SHA-256 of the envelope's `answer` as the run recorded it (before any blinding); null when there is none. */
  answer_sha256: sha.nullable(),
  /**
   * judged: both ratings read; malformed: the judge replied but the reply is not a valid judgment
   * (never repaired); not_judged: no request was sent (no envelope answer); error: the request failed
   * (infrastructure — `--resume --retry-errors` sends it again).
   */
  status: z.enum(JUDGMENT_STATUSES),
  /** A code for every status but `judged` (e.g. `reply_not_json`, `rating_out_of_range`, `envelope_malformed`, `rate_limited`). */
  reason: z.string().nullable(),
  /** One integer per protocol dimension (`coherence`, `completeness`); null unless judged. */
  ratings: z.record(z.string(), z.number().int()).nullable(),
  rationale: z.string().nullable(),
  /** The judge's raw reply when it was malformed (kept for review, never parsed again). */
  raw_reply: z.string().nullable(),
  /** How many tool names were replaced in the answer before it was sent (blinding). */
  redactions: z.number().int().nonnegative(),
  prompt_sha256: sha,
  protocol_sha256: sha,
  judge: z.strictObject({
    agent: z.string(),
    model: z.string().nullable(),
    /** The model the provider says answered (null when it says nothing, e.g. a command). */
    reported_model: z.string().nullable(),
    settings: z.record(z.string(), z.json()),
  }),
  seed: z.number().int().nonnegative(),
  usage: z
    .strictObject({ input_tokens: z.number().nullable(), output_tokens: z.number().nullable() })
    .nullable(),
});

export type EpisodeKey = z.infer<typeof episodeKeySchema>;
export type Judgment = z.infer<typeof judgmentSchema>;
