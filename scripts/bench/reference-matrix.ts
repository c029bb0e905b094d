/**
 * Benchmark: the full reference matrix (144 tasks × 2 catalogs × 5 conditions, 1 trial) through
 * `fabench run` in-process — loading and checking every input included — three times; prints the
 * median wall time and the mean tool-schema tokens per episode and per turn for each condition.
 * Target: under 10 s on one core.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli.ts";
import { median, runs, type BenchResult } from "./stats.ts";

const RUNS = runs(3);

export async function runReferenceMatrixBench(): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), "fabench-bench-"));
  const timings: number[] = [];
  let out = "";
  try {
    for (let run = 0; run < RUNS; run++) {
      out = join(dir, `run-${run}.jsonl`);
      const started = performance.now();
      const code = await main(["run", "--agent", "reference", "--out", out], {
        out: () => undefined,
        err: () => undefined,
      });
      timings.push(performance.now() - started);
      if (code !== 0) throw new Error(`fabench run exited ${code}`);
    }
    const records = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { condition: string; tokens: { tool_schema: number }; turns: unknown[] });
    const perCondition: Record<string, { episode: number; turn: number }> = {};
    for (const condition of [...new Set(records.map((r) => r.condition))]) {
      const mine = records.filter((r) => r.condition === condition);
      const schema = mine.reduce((a, r) => a + r.tokens.tool_schema, 0);
      perCondition[condition] = {
        episode: Math.round(schema / mine.length),
        turn: Math.round(schema / mine.reduce((a, r) => a + r.turns.length, 0)),
      };
    }
    const ms = median(timings);
    return {
      name: "reference_matrix_1440_episodes",
      episodes: records.length,
      median_ms: Math.round(ms),
      runs_ms: timings.map((t) => Math.round(t)),
      mean_tool_schema_tokens: perCondition,
      target: "median under 10000 ms",
      met: ms < 10_000,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
