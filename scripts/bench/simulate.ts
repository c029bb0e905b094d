/**
 * Benchmark: the default `fabench simulate coverage` run (8 scenarios × 1,000 datasets × 1,000
 * iterations, every interval method), once. Target: under 3 minutes on one core.
 */
import { main } from "../../src/cli.ts";
import { SMOKE, type BenchResult } from "./stats.ts";

export async function runSimulateBench(): Promise<BenchResult> {
  const started = performance.now();
  const code = await main(
    ["simulate", "coverage", "--json", ...(SMOKE ? ["--datasets", "3", "--iterations", "100"] : [])],
    { out: () => undefined, err: () => undefined },
  );
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`simulate coverage exited ${code}`);
  return {
    name: "simulate_coverage_default",
    median_ms: Math.round(ms),
    runs: 1,
    target: "under 180000 ms",
    met: ms < 180_000,
  };
}
