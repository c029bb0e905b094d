import { appendFileSync, existsSync, truncateSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Protocol } from "../authoring/index.ts";
import { catalogFileName } from "../conditions/catalog/index.ts";
import { type ConditionManifest } from "../conditions/routing/index.ts";
import {
  episodeKey,
  parseRunBytes,
  RECORD_FORMAT,
  type PlannedEpisode,
  type RunMetadata,
} from "../conditions/runner/index.ts";
import {
  canonicalJson,
  checkOutput,
  inputError,
  readBytes,
  sha256Hex,
  taskSizeKey,
  toolRevision,
  toolVersion,
  usageError,
  writeFailure,
  writeFileAtomic,
} from "../core/index.ts";
import type { CheckedCorpus, LoadedBenchmark } from "./benchmark.ts";

export function systemPromptPath(protocolPath: string, protocol: Protocol): string {
  return join(dirname(protocolPath), protocol.agent_loop.system_prompt_file);
}

/** Refuses a manifest that was not frozen from exactly these inputs. */
export function checkManifest(
  manifest: ConditionManifest,
  loaded: LoadedBenchmark,
  corpus: CheckedCorpus,
  file: string,
): void {
  const problems: string[] = [];
  if (manifest.protocol_sha256 !== loaded.protocolSha256) problems.push("protocol_sha256");
  if (manifest.plan_slots_sha256 !== loaded.plan.slots_sha256) problems.push("plan_slots_sha256");
  if (manifest.corpus_tasks_sha256 !== corpus.tasksSha256) problems.push("corpus_tasks_sha256");
  for (const c of loaded.catalogs)
    if (manifest.catalogs.find((m) => m.size === c.size)?.sha256 !== c.catalog.sha256)
      problems.push(`catalogs[${c.size}]`);
  if (problems.length > 0)
    throw inputError(
      "run",
      "condition_manifest_mismatch",
      `the condition manifest was frozen from other inputs (${problems.join(", ")} differ); rerun \`fabench conditions freeze\``,
      { file },
    );
}

export function checkSelection(
  manifest: ConditionManifest,
  protocol: Protocol,
  episodes: readonly PlannedEpisode[],
  conditions: readonly string[],
  sizes: readonly number[],
): void {
  const unknownConditions = conditions.filter(
    (c) => !protocol.conditions.some((p) => p.id === c) || !manifest.conditions.includes(c),
  );
  if (unknownConditions.length > 0)
    throw usageError(
      "unknown_condition",
      `no such condition: ${unknownConditions.join(", ")} (have ${manifest.conditions.join(", ")})`,
    );
  const unknownSizes = sizes.filter((s) => !protocol.catalog_sizes.includes(s));
  if (unknownSizes.length > 0)
    throw usageError(
      "unknown_catalog_size",
      `no such catalog size: ${unknownSizes.join(", ")} (have ${protocol.catalog_sizes.join(", ")})`,
    );
  if (episodes.length === 0)
    throw usageError("empty_selection", "the selection has no episodes (check --tasks and --shard)");
  const entries = new Set(manifest.entries.map(taskSizeKey));
  const missing = episodes.find((e) => !entries.has(taskSizeKey(e)));
  if (missing)
    throw inputError(
      "run",
      "condition_manifest_incomplete",
      `the condition manifest has no entry for ${missing.semantic_task_id} at ${missing.catalog_size}`,
    );
}

export function checkOutputNotInput(out: string, inputs: readonly string[]): void {
  checkOutput(out, { inputs });
}

export function catalogFiles(dir: string, sizes: readonly number[]): string[] {
  return sizes.map((s) => join(dir, catalogFileName(s)));
}

export interface MetadataInput {
  readonly loaded: LoadedBenchmark;
  readonly corpus: CheckedCorpus;
  readonly manifest: ConditionManifest;
  readonly agent: { agent: string; model: string | null; settings: Record<string, unknown> };
  readonly tokenizer: string;
  readonly systemPrompt: string;
  readonly trials: number;
  readonly selection: RunMetadata["selection"];
  readonly unlockedBy: NonNullable<RunMetadata["unlocked_by"]> | null;
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
  };
}

export interface ResumeState {
  readonly done: Set<string>;
  readonly droppedTornBytes: number;
}

/**
 * Reads an interrupted run file: drops a torn last line (truncating the file), refuses records of
 * another run or episodes outside this selection and shard, and lists the finished episodes.
 */
export function prepareResume(
  out: string,
  metadata: RunMetadata,
  planned: readonly PlannedEpisode[],
): ResumeState {
  if (!existsSync(out)) return { done: new Set(), droppedTornBytes: 0 };
  const parsed = parseRunBytes(readBytes(out, "run"), out);
  if (parsed.tornBytes > 0) truncateSync(out, parsed.completeBytes);
  // A whole last record without its newline is kept; the next record must start on a line of its own.
  if (parsed.unterminated) appendNewline(out);
  const expected = canonicalJson(metadata);
  const wanted = new Set(planned.map(episodeKey));
  const done = new Set<string>();
  parsed.records.forEach((record, i) => {
    const line = parsed.lines[i];
    if (canonicalJson(record.metadata) !== expected) {
      const fields = Object.keys(metadata).filter(
        (k) =>
          canonicalJson((record.metadata as Record<string, unknown>)[k]) !==
          canonicalJson((metadata as Record<string, unknown>)[k]),
      );
      throw inputError(
        "run",
        "resume_metadata_mismatch",
        `this record belongs to another run (${fields.join(", ")} differ); use a new --out`,
        { file: out, ...(line ? { line } : {}) },
      );
    }
    const key = episodeKey(record);
    if (!wanted.has(key))
      throw inputError("run", "resume_foreign_episode", `${key} is not part of this selection or shard`, {
        file: out,
        ...(line ? { line } : {}),
      });
    if (done.has(key))
      throw inputError("run", "duplicate_episode", `${key} appears twice`, {
        file: out,
        ...(line ? { line } : {}),
      });
    done.add(key);
  });
  return { done, droppedTornBytes: parsed.tornBytes };
}

/** For --retry-errors: rewrites the run file without its error-coded records; returns how many went. */
export function dropErrorRecords(out: string): number {
  if (!existsSync(out)) return 0;
  const bytes = readBytes(out, "run");
  const parsed = parseRunBytes(bytes, out);
  const keep = parsed.records.filter((r) => r.status !== "error");
  const dropped = parsed.records.length - keep.length;
  if (dropped > 0) writeFileAtomic(out, keep.map((r) => `${JSON.stringify(r)}\n`).join(""));
  return dropped;
}

function appendNewline(out: string): void {
  try {
    appendFileSync(out, "\n");
  } catch (error) {
    throw writeFailure(out, error);
  }
}
