/**
 * What `discover-call score` tells a person (issue #25): per model, workflow success with its
 * task-cluster bootstrap interval, and where the failed trials failed — each at its earliest failed
 * gate, by stage and then by reason code. Pure: the summary in, lines out; every figure is one the
 * summary holds, printed to its 4 places.
 */
import { compareCodePoints } from "../core/index.ts";
import { earliestFailedGate } from "./score.ts";
import type { DiscoverCallSummary, ModelSummary, ScoredRecord } from "./summary.ts";

/** Stages in the order a trial meets them; a stage outside this list sorts after it, by name. */
const STAGE_ORDER = [
  "api",
  "discover",
  "select",
  "inspect",
  "parameterize",
  "adapter",
  "call",
  "result",
  "unknown",
];

const fixed = (value: number) => value.toFixed(4);

function rank(stage: string): number {
  const at = STAGE_ORDER.indexOf(stage);
  return at === -1 ? STAGE_ORDER.length : at;
}

/** `select 29 (ungrounded_tool_id 29), result 1 (empty_result 1)`: most failures first. */
export function failuresByStage(records: readonly ScoredRecord[]): string {
  const stages = new Map<string, Map<string, number>>();
  for (const record of records) {
    const failure = earliestFailedGate(record);
    if (failure === null) continue;
    const reasons = stages.get(failure.stage) ?? new Map<string, number>();
    const reason = failure.reason ?? "no reason code";
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    stages.set(failure.stage, reasons);
  }
  if (stages.size === 0) return "none";
  const total = (reasons: Map<string, number>) => [...reasons.values()].reduce((a, b) => a + b, 0);
  return [...stages]
    .map(([stage, reasons]) => ({ stage, reasons, n: total(reasons) }))
    .sort((a, b) => b.n - a.n || rank(a.stage) - rank(b.stage) || compareCodePoints(a.stage, b.stage))
    .map(({ stage, reasons, n }) => {
      const listed = [...reasons]
        .sort(([a, m], [b, k]) => k - m || compareCodePoints(a, b))
        .map(([reason, count]) => `${reason} ${count}`);
      return `${stage} ${n} (${listed.join(", ")})`;
    })
    .join(", ");
}

function workflowSuccess(model: ModelSummary): string {
  if (model.workflow_success_rate === null)
    return "workflow success unknown (a successful call has no result evidence)";
  const interval = model.workflow_success_task_cluster_bootstrap_95;
  const shown =
    interval === null ? "" : ` (task-cluster bootstrap 95% [${fixed(interval[0])}, ${fixed(interval[1])}])`;
  return `workflow success ${fixed(model.workflow_success_rate)}${shown}`;
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** Two lines per model (three for a dry run), in the summary's model order. */
export function scoreLines(summary: DiscoverCallSummary): string[] {
  return summary.models.flatMap((model) => {
    const records = summary.records.filter((r) => r.model === model.model);
    const size = `${plural(model.tasks, "task")} × ${plural(model.trials_per_task, "trial")}`;
    const lines = [
      `${model.model} (${model.lane}, ${size}): ${workflowSuccess(model)}`,
      `  failures by stage: ${failuresByStage(records)}`,
    ];
    if (model.executed === 0)
      lines.push(
        "  a dry run: no trial made its call, so none counts as a workflow success (run with --execute)",
      );
    return lines;
  });
}
