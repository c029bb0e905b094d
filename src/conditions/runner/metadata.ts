/** The metadata every record of a run carries: what was run, on which inputs, by which agent. */
import { sha256Hex, toolRevision, toolVersion } from "../../core/index.ts";
import type { ProgressiveTrigger } from "../execution/widening.ts";
import type { ConditionManifest } from "../routing/manifest-schema.ts";
import type { BenchmarkValues, CorpusValues } from "./plan.ts";
import { RECORD_FORMAT, type RunMetadata } from "./record.ts";

export interface MetadataInput {
  readonly loaded: BenchmarkValues;
  readonly corpus: CorpusValues;
  readonly manifest: ConditionManifest;
  readonly agent: { agent: string; model: string | null; settings: Record<string, unknown> };
  readonly tokenizer: string;
  readonly systemPrompt: string;
  readonly trials: number;
  readonly selection: RunMetadata["selection"];
  readonly unlockedBy: NonNullable<RunMetadata["unlocked_by"]> | null;
  /** Written only when it is `gold`, so a default run's records are what they were before. */
  readonly progressiveTrigger?: ProgressiveTrigger;
}

export function runMetadata(input: MetadataInput): RunMetadata {
  const { loaded, manifest } = input;
  return {
    format: RECORD_FORMAT,
    tool: "fabench",
    tool_version: toolVersion(),
    git_revision: toolRevision(),
    agent: input.agent.agent,
    model: input.agent.model,
    agent_settings: input.agent.settings as RunMetadata["agent_settings"],
    tokenizer: input.tokenizer,
    protocol_id: loaded.protocol.protocol_id,
    protocol_sha256: loaded.protocolSha256,
    plan_slots_sha256: loaded.plan.slots_sha256,
    corpus_tasks_sha256: input.corpus.tasksSha256,
    corpus_file_sha256: input.corpus.fileSha256,
    catalogs: loaded.catalogs.map((c) => ({ size: c.size, sha256: c.catalog.sha256 })),
    condition_manifest_sha256: manifest.manifest_sha256,
    router_id: manifest.router.id,
    router_config_sha256: manifest.router.config_sha256,
    system_prompt_sha256: sha256Hex(input.systemPrompt),
    max_turns: loaded.protocol.agent_loop.max_turns,
    trials: input.trials,
    selection: input.selection,
    unlocked_by: input.unlockedBy,
    ...(input.progressiveTrigger === "gold" ? { progressive_trigger: "gold" as const } : {}),
  };
}
