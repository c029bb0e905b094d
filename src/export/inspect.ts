/**
 * A scored run as one Inspect AI eval log (JSON, log version 2): the eval's spec (the protocol as
 * the task, the agent as the solver and model, the corpus as the dataset, the run's provenance as
 * metadata), the results (per metric, the summary's mean for each condition × catalog size), the
 * run's token usage and one sample per episode. Deterministic: every id is a hash of the inputs and
 * every time comes from the run records, so the same run and summary give the same bytes.
 */
import type { Task } from "../authoring/index.ts";
import type { RunRecord } from "../conditions/runner/index.ts";
import { episodeKey, sha256Hex } from "../core/index.ts";
import type { Summary } from "../summary/index.ts";
import { endOf, type EpisodeScore, episodeSample, sampleId, usageOf } from "./episode.ts";
import {
  EVAL_CONFIG_FIELDS,
  type EvalScore,
  GENERATE_CONFIG_FIELDS,
  type InspectLog,
  type InspectSample,
} from "./inspect-schema.ts";

export interface ExportInput {
  readonly summary: Summary;
  /** The summary's sha256 (of its bytes), so ids change when the scores do. */
  readonly summarySha256: string;
  /** Every record the summary scored, in any order. */
  readonly records: readonly RunRecord[];
  readonly tasks: ReadonlyMap<string, Task>;
  /** The system prompt whose hash the run records, or null to leave it out. */
  readonly systemPrompt: string | null;
  /** The corpus file's name (no folder: the log must not depend on where it was read). */
  readonly corpusName: string;
}

/** Inspect names models `provider/model`; the reference agent (no model) is `fabench/reference`. */
export function modelName(metadata: Pick<RunRecord["metadata"], "agent" | "model">): string {
  const [provider, ...rest] = metadata.agent.split(":");
  if (metadata.model !== null) return `${provider}/${metadata.model}`;
  return rest.length > 0 ? `${provider}/${rest.join(":")}` : `fabench/${metadata.agent}`;
}

const nulls = <K extends string>(fields: readonly K[]) =>
  Object.fromEntries(fields.map((f) => [f, null])) as Record<K, null>;

/** A short id from a hash, as long as Inspect's own (22 characters). */
const shortId = (...parts: string[]) => sha256Hex(parts.join("\n")).slice(0, 22);

/**
 * Per metric, the summary's mean for every condition × catalog size (`SR-5/100`). Only metrics with
 * a mean in every one are listed (e.g. not `recovered`, undefined where nothing was hidden): the
 * viewer groups results by their set of names and heads the page with a small group, so a metric
 * defined in fewer cells would stand as the log's headline. The samples keep every metric.
 */
export function resultScores(summary: Summary, samples: readonly InspectSample[]): EvalScore[] {
  const metrics = [
    ...new Set(
      Object.values(summary.aggregates)
        .flatMap((c) => Object.values(c))
        .flatMap((a) => Object.keys(a.means)),
    ),
  ];
  const everywhere = metrics.filter((metric) =>
    Object.values(summary.aggregates).every((byCondition) =>
      Object.values(byCondition).every((a) => a.means[metric] !== null && a.means[metric] !== undefined),
    ),
  );
  return everywhere.map((metric) => {
    const scored = samples.filter((s) => s.scores[metric] !== undefined).length;
    const entries = Object.entries(summary.aggregates).flatMap(([size, byCondition]) =>
      Object.entries(byCondition).flatMap(([condition, aggregate]) => {
        const value = aggregate.means[metric];
        const name = `${condition}/${size}`;
        return value === null || value === undefined
          ? []
          : [
              [
                name,
                { name, value, params: { condition, catalog_size: Number(size) }, metadata: null },
              ] as const,
            ];
      }),
    );
    return {
      name: metric,
      scorer: "fabench",
      reducer: null,
      scored_samples: scored,
      unscored_samples: samples.length - scored,
      params: {},
      metrics: Object.fromEntries(entries),
      metadata: { mean_of: "episodes of each condition × catalog size (the summary's aggregates)" },
    };
  });
}

function samplesOf(input: ExportInput, model: string): InspectSample[] {
  const records = new Map(input.records.map((r) => [episodeKey(r), r]));
  return input.summary.episode_scores.map((score: EpisodeScore) => {
    const record = records.get(episodeKey(score));
    const task = input.tasks.get(score.semantic_task_id);
    // The command checks both before building; reaching here without them is a bug.
    if (record === undefined || task === undefined)
      throw new Error(`no record or task for ${episodeKey(score)}`);
    return episodeSample({ record, score, task, systemPrompt: input.systemPrompt, model });
  });
}

export function inspectLog(input: ExportInput): InspectLog {
  const { summary } = input;
  const model = modelName(summary.run);
  const samples = samplesOf(input, model);
  const starts = input.records.map((r) => r.timings.started_at).sort();
  const ends = input.records.map(endOf).sort();
  const totals = input.records.reduce(
    (sum, r) => ({ input: sum.input + r.tokens.input, output: sum.output + r.tokens.output }),
    { input: 0, output: 0 },
  );
  return {
    version: 2,
    status: "success",
    eval: evalSpec(input, model, samples, starts[0] ?? ""),
    plan: {
      name: "plan",
      steps: [{ solver: summary.run.agent, params: summary.run.agent_settings, params_passed: {} }],
      finish: null,
      config: nulls(GENERATE_CONFIG_FIELDS),
    },
    results: {
      total_samples: samples.length,
      completed_samples: input.records.filter((r) => r.status === "completed").length,
      early_stopping: null,
      scores: resultScores(summary, samples),
      metadata: {
        gate_status: summary.gate.status,
        preregistered: summary.preregistered,
        complete: summary.complete,
      },
    },
    stats: {
      started_at: starts[0] ?? "",
      completed_at: ends[ends.length - 1] ?? "",
      model_usage: { [model]: usageOf(totals) },
    },
    error: null,
    invalidated: false,
    samples,
    reductions: null,
  };
}

/** The eval's spec: the protocol is the task, the agent the solver, the corpus the dataset. */
function evalSpec(
  input: ExportInput,
  model: string,
  samples: readonly InspectSample[],
  created: string,
): InspectLog["eval"] {
  const { summary } = input;
  const run = summary.run;
  const runFiles = summary.run_files.map((f) => f.sha256);
  const { epochs: _, ...configNulls } = nulls(EVAL_CONFIG_FIELDS);
  return {
    eval_set_id: null,
    eval_id: shortId("eval", input.summarySha256, ...runFiles),
    run_id: shortId("run", ...runFiles),
    created,
    task: summary.protocol_id,
    task_id: shortId("task", summary.protocol_sha256, run.corpus_file_sha256),
    task_version: 0,
    task_file: null,
    task_display_name: `fabench ${summary.protocol_id}${summary.preregistered ? "" : " (not preregistered)"}`,
    task_registry_name: null,
    task_attribs: {},
    task_args: {},
    task_args_passed: {},
    solver: run.agent,
    solver_args: run.agent_settings,
    solver_args_passed: {},
    tags: ["fabench", summary.preregistered ? "preregistered" : "not-preregistered"],
    dataset: {
      name: input.corpusName,
      location: input.corpusName,
      samples: samples.length,
      sample_ids: [...new Set(samples.map((s) => s.id))],
      shuffled: false,
    },
    sandbox: null,
    model,
    model_generate_config: nulls(GENERATE_CONFIG_FIELDS),
    model_base_url: null,
    model_args: {},
    model_roles: null,
    config: { ...configNulls, epochs: run.trials },
    revision:
      run.git_revision === null ? null : { type: "git", origin: "", commit: run.git_revision, dirty: null },
    packages: { fabench: run.tool_version },
    metadata: provenance(input),
    scorers: null,
    metrics: null,
  };
}

/** What a reader needs to trace the log back to fabench's files: the run's hashes, the router, the summary. */
function provenance(input: ExportInput): Record<string, unknown> {
  const { summary } = input;
  const { run } = summary;
  return {
    fabench: {
      protocol_id: summary.protocol_id,
      protocol_sha256: summary.protocol_sha256,
      preregistered: summary.preregistered,
      router_id: run.router_id,
      router_config_sha256: run.router_config_sha256,
      condition_manifest_sha256: run.condition_manifest_sha256,
      corpus_file_sha256: run.corpus_file_sha256,
      corpus_tasks_sha256: run.corpus_tasks_sha256,
      plan_slots_sha256: run.plan_slots_sha256,
      catalogs: run.catalogs,
      system_prompt_sha256: run.system_prompt_sha256,
      tokenizer: run.tokenizer,
      run_files: summary.run_files,
      summary_sha256: input.summarySha256,
      gate_status: summary.gate.status,
    },
  };
}

export { sampleId };
