import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

describe("npm run bench", () => {
  it("runs every benchmark end to end (smoke mode: tiny inputs, one run) and prints one result line each", () => {
    // Benchmarks are not run by `npm test` at full size; this keeps them from breaking unnoticed.
    const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/bench/run-all.ts"], { env: { ...process.env, FABENCH_BENCH_SMOKE: "1" }, encoding: "utf8", timeout: 120_000 });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split("\n").map((l) => JSON.parse(l) as { name: string; median_ms: number; target: string; met: boolean; smoke: boolean });
    expect(lines.map((l) => l.name)).toEqual(["identity_validation_100k", "score_4320_episodes", "reference_matrix_1440_episodes", "score_4320_episode_run", "simulate_coverage_default"]);
    for (const l of lines) {
      expect(l.smoke).toBe(true);
      expect(l.median_ms).toBeGreaterThan(0);
      expect(l.target).toMatch(/ms/);
    }
  }, 150_000);

  it("refuses an unknown benchmark name with exit 2", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/bench/run-all.ts", "nope"], { encoding: "utf8", timeout: 60_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("bench: usage_error: unknown benchmark nope");
  });
});
