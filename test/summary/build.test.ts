import { describe, expect, it } from "vitest";
import type { Task } from "../../src/authoring/index.ts";
import type { RunMetadata } from "../../src/conditions/runner/index.ts";
import type { EpisodeRow } from "../../src/metrics/index.ts";
import {
  buildSummary,
  missingEpisodes,
  reportedModels,
  summarySchema,
  type SummaryInput,
} from "../../src/summary/index.ts";
import { bundled } from "../helpers/bundled.ts";

const { protocol } = bundled();
const CONDITIONS = ["FULL", "SR-5", "SR-10", "SR-PROGRESSIVE", "ORACLE"];
const TASKS = ["t-1", "t-2"];

/** One episode row per task × size × condition (trial 1); SR-5 misses half the facts of t-2. */
function rows(skip: (task: string, size: number, condition: string) => boolean = () => false): EpisodeRow[] {
  return TASKS.flatMap((task) =>
    [100, 250].flatMap((size) =>
      CONDITIONS.filter((c) => !skip(task, size, c)).map((condition) => ({
        semantic_task_id: task,
        answer_task_stratum: "single_property_value_unit_provenance",
        language: "en",
        catalog_size: size,
        condition,
        trial: 1,
        status: "completed" as const,
        error_code: null,
        malformed_reason: null,
        metrics: { required_fact_recall: task === "t-2" && condition === "SR-5" ? 0.5 : 1 },
        facts: [],
      })),
    ),
  );
}

function input(
  episodes: EpisodeRow[],
  models: (row: EpisodeRow) => string | null = () => null,
  overrides: Partial<SummaryInput> = {},
): SummaryInput {
  const tasks = new Map(
    TASKS.map((id) => [
      id,
      {
        semantic_task_id: id,
        answer_task_stratum: "single_property_value_unit_provenance",
        language: "en",
      } as unknown as Task,
    ]),
  );
  return {
    protocol,
    protocolSha256: "0".repeat(64),
    preregistered: true,
    // Only `trials` is read; the rest is copied into the summary as it is.
    metadata: { trials: 1 } as unknown as RunMetadata,
    records: episodes.map((r) => ({ ...r, turns: [{ model: models(r) }] })),
    runFiles: [{ path: "r.jsonl", sha256: "1".repeat(64) }],
    rows: episodes,
    tasks,
    prerequisite: { satisfied: false, blocking: [{ stage: "#432", reason: "is pending; needs succeeded" }] },
    rng: "seedrandom",
    allowIncomplete: false,
    allowMixedModels: false,
    ...overrides,
  };
}

describe("the summary", () => {
  it("names every episode of the whole benchmark that no record covers", () => {
    const records = rows(
      (task, size, condition) =>
        task === "t-2" && size === 250 && (condition === "ORACLE" || condition === "FULL"),
    );
    expect(missingEpisodes(records, TASKS, protocol, 1)).toEqual(["t-2|250|FULL|1", "t-2|250|ORACLE|1"]);
    expect(missingEpisodes(records, TASKS, protocol, 2)).toHaveLength(20 + 2);
  });

  it("refuses an incomplete set with the first 20 missing episodes and the count, unless allowed", () => {
    const partial = rows((task) => task === "t-2"); // 10 episodes of t-2 missing
    const refused = buildSummary(
      input(partial, () => null, { metadata: { trials: 3 } as unknown as RunMetadata }),
    );
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    // trials 3: t-1 lacks trials 2–3 (20) and t-2 lacks all 30.
    expect(refused.total).toBe(50);
    expect(refused.problems).toHaveLength(20);
    expect(refused.problems[0]).toEqual({ code: "missing_episode", message: "t-1|100|FULL|2" });
    expect(refused.advice).toContain("--allow-incomplete");

    const allowed = buildSummary(input(partial, () => null, { allowIncomplete: true }));
    expect(allowed.ok).toBe(true);
    if (!allowed.ok) return;
    expect(allowed.summary.complete).toBe(false);
    expect(allowed.summary.missing_episodes).toBe(10);
    expect(allowed.summary.gate.complete).toBe(false);
    expect(allowed.summary.gate.status).toBe("BLOCKED");
  });

  it("refuses a run answered by several models, listing each with its turns, unless allowed", () => {
    const episodes = rows();
    const model = (r: EpisodeRow) =>
      r.semantic_task_id === "t-1" && r.catalog_size === 100 ? "model-b" : "model-a";
    expect(reportedModels(input(episodes, model).records)).toEqual({ "model-a": 15, "model-b": 5 });
    const refused = buildSummary(input(episodes, model));
    expect(refused.ok).toBe(false);
    if (!refused.ok)
      expect(refused.problems).toEqual([
        { code: "mixed_reported_models", message: "15 turn(s) answered by model-a" },
        { code: "mixed_reported_models", message: "5 turn(s) answered by model-b" },
      ]);
    const allowed = buildSummary(input(episodes, model, { allowMixedModels: true }));
    expect(allowed.ok && allowed.summary.reported_models).toEqual({ "model-a": 15, "model-b": 5 });
  });

  it("builds a complete summary that its own schema accepts, with the gate read from its statistics", () => {
    const result = buildSummary(input(rows()));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { summary } = result;
    // The run metadata here is a stub; everything this stage builds is checked field by field.
    const { run: _stub, ...built } = summary;
    const parsed = summarySchema.omit({ run: true }).safeParse(built);
    expect(parsed.success ? [] : parsed.error.issues.map((i) => i.path.join("."))).toEqual([]);
    expect(summary.complete).toBe(true);
    expect(summary.episodes).toBe(20);
    expect(summary.reported_models).toEqual({});
    // SR-5 recall: t-1 keeps 1, t-2 drops to 0.5 → pooled delta (0 + −0.5) / 2.
    expect(summary.gate.conditions["SR-5"]?.checks["fact_recall"]?.delta).toBeCloseTo(-0.25, 12);
    expect(summary.gate.conditions["SR-5"]?.checks["fact_recall"]?.passed).toBe(false);
    expect(summary.gate.conditions["SR-10"]?.checks["fact_recall"]?.delta).toBe(0);
    // Blocked by the prerequisite whatever the numbers say.
    expect(summary.gate.status).toBe("BLOCKED");
  });
});
