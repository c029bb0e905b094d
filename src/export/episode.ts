/**
 * One episode as one Inspect sample: its id (task, catalog size and condition; the trial is the
 * epoch), the request the agent received as `input`, the required facts as `target`, the messages,
 * the final answer as `output`, one score per metric the summary gave the episode, and the
 * episode's identity and outcome as `metadata`.
 */
import type { Task } from "../authoring/index.ts";
import { renderUserMessage } from "../conditions/execution/index.ts";
import type { RunRecord } from "../conditions/runner/index.ts";
import type { Summary } from "../summary/index.ts";
import type { InspectSample, InspectScore, ModelUsage } from "./inspect-schema.ts";
import { episodeMessages } from "./trajectory.ts";

export type EpisodeScore = Summary["episode_scores"][number];

/** URL-safe and unique per (task, size, condition); the trial is the sample's epoch. */
export function sampleId(e: Pick<RunRecord, "semantic_task_id" | "catalog_size" | "condition">): string {
  return `${e.semantic_task_id}-c${e.catalog_size}-${e.condition}`;
}

export function usageOf(tokens: { input: number; output: number }): ModelUsage {
  return {
    input_tokens: tokens.input,
    output_tokens: tokens.output,
    total_tokens: tokens.input + tokens.output,
    input_tokens_cache_write: null,
    input_tokens_cache_read: null,
    reasoning_tokens: null,
    total_cost: null,
  };
}

/** `key = value unit — source S (or: A, B)`: a required fact as a reader checks an answer against it. */
export function targetLine(fact: Task["required_facts"][number]): string {
  const value = typeof fact.value === "string" ? fact.value : JSON.stringify(fact.value);
  const unit = fact.unit === null ? "" : ` ${fact.unit}`;
  const also = (fact.also_in ?? []).map((p) => p.source_id);
  const or = also.length > 0 ? ` (or: ${also.join(", ")})` : "";
  return `${fact.key} = ${value}${unit} — source ${fact.source_id}${or}`;
}

/** Inspect scores are numbers; a metric the episode has no value for (null) is left out. */
function scoresOf(score: EpisodeScore): Record<string, InspectScore> {
  const out: Record<string, InspectScore> = {};
  for (const [metric, value] of Object.entries(score.metrics))
    if (value !== null) out[metric] = { value, answer: null, explanation: null, metadata: null, history: [] };
  return out;
}

/** When the episode ended: its start plus its duration, as an ISO instant (no clock read). */
export function endOf(record: Pick<RunRecord, "timings">): string {
  return new Date(Date.parse(record.timings.started_at) + record.timings.duration_ms).toISOString();
}

export interface SampleInput {
  readonly record: RunRecord;
  readonly score: EpisodeScore;
  readonly task: Task;
  readonly systemPrompt: string | null;
  readonly model: string;
}

export function episodeSample(input: SampleInput): InspectSample {
  const { record, score, task, model } = input;
  const id = sampleId(record);
  const userMessage = renderUserMessage(task);
  const usage = usageOf(record.tokens);
  const seconds = record.timings.duration_ms / 1000;
  return {
    id,
    epoch: record.trial,
    input: userMessage,
    choices: null,
    target: task.required_facts.map(targetLine),
    sandbox: null,
    files: null,
    setup: null,
    messages: episodeMessages({ sampleId: id, record, userMessage, systemPrompt: input.systemPrompt, model }),
    output: {
      model,
      choices: [
        {
          message: {
            id: `${id}-output`,
            role: "assistant",
            content: record.final_text,
            source: "generate",
            metadata: null,
            tool_calls: null,
            model,
          },
          stop_reason: record.end_reason === "final_answer" ? "stop" : "unknown",
          logprobs: null,
        },
      ],
      completion: record.final_text,
      usage,
      time: seconds,
      metadata: { end_reason: record.end_reason },
      error: record.status === "error" ? (record.error_code ?? "error") : null,
    },
    scores: scoresOf(score),
    metadata: {
      semantic_task_id: record.semantic_task_id,
      answer_task_stratum: record.answer_task_stratum,
      language: record.language,
      catalog_size: record.catalog_size,
      condition: record.condition,
      trial: record.trial,
      router_id: record.metadata.router_id,
      agent: record.metadata.agent,
      status: record.status,
      error_code: record.error_code,
      end_reason: record.end_reason,
      malformed_reason: score.malformed_reason,
      facts: score.facts,
    },
    store: {},
    events: [],
    model_usage: { [model]: usage },
    started_at: record.timings.started_at,
    completed_at: endOf(record),
    total_time: seconds,
    working_time: seconds,
    uuid: null,
    invalidation: null,
    error: null,
    error_retries: null,
    attachments: {},
    limit: null,
  };
}
