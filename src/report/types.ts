/** The summary file (`fabench-summary/v2`): what `fabench score` writes and the report reads. */
import type { RunRecord } from "../conditions/index.ts";
import type { Gate } from "../gates/index.ts";
import type { EpisodeRow, Statistics } from "../metrics/index.ts";

export const SUMMARY_FORMAT = "fabench-summary/v2";

export interface Summary extends Statistics {
  readonly format: typeof SUMMARY_FORMAT;
  readonly complete: boolean;
  readonly missing_episodes: number;
  readonly protocol_id: string;
  readonly protocol_sha256: string;
  readonly run: RunRecord["metadata"];
  readonly run_files: Array<{ path: string; sha256: string }>;
  readonly episodes: number;
  readonly infrastructure_errors: { total: number; by_code: Record<string, number> };
  /** Model turns by the model name the provider reported (keys in code-point order; empty for agents that report none). */
  readonly reported_models: Record<string, number>;
  readonly gate: Gate;
  readonly episode_scores: EpisodeRow[];
}
