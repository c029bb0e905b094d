/**
 * Benchmark: `fabench score` on a 4,320-episode run file (144 tasks × 2 catalogs × 5 conditions ×
 * 3 trials, reference agent) — rescoring, aggregates, the 10,000-iteration bootstrap over every
 * condition, metric, catalog size and the breakdowns, the gate and the summary file. Prints the
 * median of the whole command and of the bootstrap alone. Target: under 2 s on one core.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli.ts";
import { loadBenchmark, loadCheckedCorpus } from "../../src/world/index.ts";
import { parseRunBytes } from "../../src/conditions/runner/index.ts";
import { loadUnitConverter } from "../../src/core/index.ts";
import { scoreRecord } from "../../src/metrics/index.ts";
import { summarizeEpisodes } from "../../src/summary/index.ts";
import { median, runs, type BenchResult } from "./stats.ts";

const RUNS = runs(3);
const quiet = { out: () => undefined, err: () => undefined };

export async function runScoreBench(): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), "fabench-score-bench-"));
  try {
    const run = join(dir, "run.jsonl");
    if ((await main(["run", "--agent", "reference", "--trials", "3", "--out", run], quiet)) !== 0)
      throw new Error("the reference run failed");
    const whole: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      if ((await main(["score", run, "--out", join(dir, "summary.json")], quiet)) !== 0)
        throw new Error("score failed");
      whole.push(performance.now() - started);
    }
    // The bootstrap alone, on the same episodes.
    const loaded = loadBenchmark({
      protocol: "manifests/preregistration.json",
      plan: "manifests/authoring-plan.json",
      catalogs: "tasks/catalogs",
      forbiddenCorpus: [],
    });
    const corpus = await loadCheckedCorpus(loaded, "tasks/final-answer-corpus.json");
    const tasks = new Map(corpus.tasks.map((t) => [t.semantic_task_id, t]));
    const units = await loadUnitConverter();
    const records = parseRunBytes(readFileSync(run), run).records;
    const rows = records.map((r) => scoreRecord(r, tasks.get(r.semantic_task_id)!, units));
    const core: number[] = [];
    for (let i = 0; i < RUNS; i++)
      core.push(
        summarizeEpisodes(rows, tasks, loaded.protocol, "seedrandom", () => performance.now()).coreMs,
      );
    const ms = median(whole);
    return {
      name: "score_4320_episode_run",
      episodes: records.length,
      median_ms: Math.round(ms),
      runs_ms: whole.map(Math.round),
      bootstrap_median_ms: Math.round(median(core)),
      target: "median under 2000 ms",
      met: ms < 2000,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
