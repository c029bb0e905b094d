/**
 * What the episode view reads besides the summary, each optional: the corpus's tasks (the request,
 * the answer form and the gold facts), the condition manifest's entries (the routes each condition
 * showed and the router's ranks of the required routes) and the run records (the answer and the
 * trajectory). The command checks each file's hash against the summary before handing it over, so
 * nothing here re-checks content; the shapes below are only the parts the view reads, parsed
 * leniently (a field the view does not know is ignored, one it cannot read is shown as missing).
 */
import { z } from "zod";
import type { Task } from "../authoring/index.ts";

/** One stage of visible routes: "all" the catalog's routes, or these route ids. */
export type RouteStage = "all" | readonly string[];

/** A condition-manifest entry, as the view reads it (its schema is src/conditions/routing's). */
export interface RouteEntry {
  readonly required_route_ranks: Readonly<Record<string, number>>;
  readonly conditions: Readonly<Record<string, { readonly stages: readonly RouteStage[] }>>;
}

/** One tool call of a turn. */
const toolCallSchema = z.object({ name: z.string(), arguments: z.unknown() });

/** One search of a turn under a search condition (#34). */
const searchSchema = z.object({
  engine: z.string().optional(),
  query: z.string(),
  results: z.array(z.string()),
  error_code: z.string().nullable().optional(),
});

export const turnSchema = z.object({
  turn: z.number(),
  stage: z.number().optional(),
  visible_route_count: z.number().optional(),
  text: z.string().optional(),
  tool_calls: z.array(toolCallSchema).optional(),
  observations: z.array(z.unknown()).optional(),
  event: z.string().optional(),
  searches: z.array(searchSchema).optional(),
});
export type TraceTurn = z.infer<typeof turnSchema>;

/** One call's replay: the route it reached and what came back. */
export const attemptSchema = z.object({
  turn: z.number(),
  call_index: z.number(),
  route_id: z.string().nullable().optional(),
  outcome: z.string().optional(),
  error_code: z.string().nullable().optional(),
  required: z.boolean().optional(),
  observation: z.unknown().optional(),
});
export type TraceAttempt = z.infer<typeof attemptSchema>;

/** The parts of a run record the view reads (the command passes the record as parsed). */
export interface EpisodeRecord {
  readonly final_text: string;
  readonly end_reason: string;
  readonly turns: readonly unknown[];
  readonly attempts: readonly unknown[];
  readonly candidate_history: ReadonlyArray<{ readonly turn: number; readonly stage: number }>;
}

export interface EpisodeSources {
  /** Tasks by `semantic_task_id`; absent: the corpus was not given (see `notes`). */
  readonly tasks?: ReadonlyMap<string, Task>;
  /** Manifest entries by `taskSizeKey`; absent: the manifest was not given. */
  readonly routes?: ReadonlyMap<string, RouteEntry>;
  /** Run records by `episodeKey`; absent: no `--runs`. */
  readonly records?: ReadonlyMap<string, EpisodeRecord>;
  /** Why a source is absent, said once above the list (plain text). */
  readonly notes?: readonly string[];
}
