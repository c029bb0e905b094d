/**
 * Benchmark: parse and score 4,320 episodes (144 tasks × 2 catalogs × 5 conditions × 3 trials)
 * from the bundled corpus; every other episode gives each numeric unit-bearing value in another unit
 * the task accepts (MPa for GPa, kg/m3 for g/cm3, degF for degC…), so half the episodes go through
 * unit conversion. Target: under 1 s on one core.
 */
import { readFileSync } from "node:fs";
import type { Task } from "../../src/authoring/index.ts";
import { loadUnitConverter, type UnitConverter } from "../../src/core/index.ts";
import { parseEnvelope } from "../../src/envelope/index.ts";
import { scoreEpisode } from "../../src/metrics/index.ts";
import { median, runs, type BenchResult } from "./stats.ts";

const RUNS = runs(5);

function envelopeFor(task: Task, inOtherUnits: boolean, units: UnitConverter): string {
  const facts = task.required_facts.map((f) => {
    const other = task.accepted_units[f.key]?.find((u) => u !== f.unit);
    // A difference (of temperatures, say) converts without the scale's offset, as the scorer reads it.
    const difference = task.answer_fields.find((field) => field.key === f.key)?.difference === true;
    const value =
      inOtherUnits && f.unit !== null && other !== undefined && typeof f.value === "number"
        ? units.convert(f.value, f.unit, other, { difference })
        : null;
    return value === null
      ? { key: f.key, value: f.value, unit: f.unit, source_id: f.source_id }
      : { key: f.key, value, unit: other, source_id: f.source_id };
  });
  return JSON.stringify({ answer: "Answer with facts.", facts, sources: task.allowed_source_ids });
}

export async function runScoringBench(): Promise<BenchResult> {
  const tasks = (JSON.parse(readFileSync("tasks/final-answer-corpus.json", "utf8")) as { tasks: Task[] })
    .tasks;
  const loadStarted = performance.now();
  const units = await loadUnitConverter();
  const loadMs = performance.now() - loadStarted;
  const episodes: Array<{ task: Task; text: string }> = [];
  for (const task of tasks)
    for (let i = 0; i < 2 * 5 * 3; i++)
      episodes.push({ task, text: envelopeFor(task, episodes.length % 2 === 1, units) });
  const timings: number[] = [];
  let recalled = 0;
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    recalled = 0;
    for (const { task, text } of episodes)
      recalled += scoreEpisode(task, parseEnvelope(text), units).metrics.required_fact_recall ?? 0;
    timings.push(performance.now() - started);
  }
  if (recalled !== episodes.length)
    throw new Error(`expected every episode to recall everything, got ${recalled}/${episodes.length}`);
  const ms = median(timings);
  return {
    name: "score_4320_episodes",
    episodes: episodes.length,
    converted_episodes: episodes.length / 2,
    median_ms: Math.round(ms * 10) / 10,
    min_ms: Math.round(Math.min(...timings) * 10) / 10,
    max_ms: Math.round(Math.max(...timings) * 10) / 10,
    runs: RUNS,
    episodes_per_second: Math.round(episodes.length / (ms / 1000)),
    units_library_load_ms: Math.round(loadMs),
    target: "median under 1000 ms",
    met: ms < 1000,
  };
}
