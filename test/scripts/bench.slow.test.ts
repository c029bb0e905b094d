import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

type Line = Record<string, unknown> & { name: string; median_ms: number; target: string };

describe("npm run bench", () => {
  it("runs every benchmark end to end in smoke mode and prints one result line each, judging no target", {
    timeout: 330_000,
  }, () => {
    // Benchmarks are not run by `npm test` at full size; this keeps them from breaking unnoticed.
    // Smoke mode (tiny inputs, one run) reports the figures but judges no timing target, so the
    // exit code says only that every benchmark ran. (The spawn time limit only stops a hang.)
    const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/bench/run-all.ts"], {
      env: { ...process.env, FABENCH_BENCH_SMOKE: "1" },
      encoding: "utf8",
      timeout: 300_000,
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const lines = run.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Line);
    expect(lines.map((l) => l.name)).toEqual([
      "identity_validation_100k",
      "score_4320_episodes",
      "reference_matrix_1440_episodes",
      "score_4320_episode_run",
      "simulate_coverage_default",
      "startup_version",
      "package_score_1440_episode_run",
      "package_gate",
      "package_report",
      "package_run_first_line",
      "serve_load",
    ]);
    for (const l of lines) {
      // Targets are printed, marked as not judged; no verdict on a timing is given.
      expect(l).toMatchObject({ smoke: true, target_judged: false });
      expect(l).not.toHaveProperty("met");
      expect(l.target).toMatch(
        /^(median )?under \d+ ms$|^median fabench --version at most 2 × a bare node -e 0$|^heap after the run at most 2 × heap before, no failed request$/,
      );
      expect(Number.isFinite(l.median_ms)).toBe(true);
    }
    const [identity, scoring, matrix, scoreRun, simulate, startup] = lines;
    // The installed package's commands, each beside a bare node start measured in the same rounds.
    for (const l of lines.filter((l) => l.name.startsWith("package_")))
      expect(l["bare_node_median_ms"]).toEqual(expect.any(Number));
    // The compiled package's --version beside a bare node start, one of each in smoke mode.
    expect(startup).toMatchObject({ runs: 1 });
    expect(startup!["bare_node_median_ms"]).toEqual(expect.any(Number));
    expect(startup!["ratio"]).toEqual(expect.any(Number));
    // 25 strata × 40 languages × 2 tasks per cell in smoke mode.
    expect(identity).toMatchObject({ rows: 2000, runs: 1 });
    expect(identity!["rows_per_second"]).toEqual(expect.any(Number));
    // 144 tasks × 2 catalogs × 5 conditions × 3 trials, every other one in MPa.
    expect(scoring).toMatchObject({ episodes: 4320, converted_episodes: 2160, runs: 1 });
    expect(scoring!["episodes_per_second"]).toEqual(expect.any(Number));
    expect(scoring!["units_library_load_ms"]).toEqual(expect.any(Number));
    // 144 tasks × 2 catalogs × 5 conditions, once.
    expect(matrix).toMatchObject({ episodes: 1440 });
    expect(matrix!["runs_ms"]).toEqual([expect.any(Number)]);
    const tokens = matrix!["mean_tool_schema_tokens"] as Record<string, { episode: number; turn: number }>;
    expect(Object.keys(tokens).sort()).toEqual(["FULL", "ORACLE", "SR-10", "SR-5", "SR-PROGRESSIVE"]);
    for (const t of Object.values(tokens))
      expect(
        Number.isInteger(t.episode) && Number.isInteger(t.turn) && t.episode >= t.turn && t.turn > 0,
      ).toBe(true);
    // Fewer tool schemas shown, fewer tokens per turn: the required routes only (at most 5), 5, 10,
    // then the whole catalog. Per episode ORACLE may cost more than SR-5: SR-5 episodes end early
    // when a required route is not shown, ORACLE episodes walk every step.
    expect(tokens["ORACLE"]!.turn).toBeLessThan(tokens["SR-5"]!.turn);
    expect(tokens["SR-5"]!.turn).toBeLessThan(tokens["SR-10"]!.turn);
    expect(tokens["SR-5"]!.episode).toBeLessThan(tokens["SR-10"]!.episode);
    expect(tokens["SR-10"]!.episode).toBeLessThan(tokens["FULL"]!.episode);
    // 144 tasks × 2 catalogs × 5 conditions × 3 trials, scored once.
    expect(scoreRun).toMatchObject({ episodes: 4320 });
    expect(scoreRun!["runs_ms"]).toEqual([expect.any(Number)]);
    expect(scoreRun!["bootstrap_median_ms"]).toEqual(expect.any(Number));
    expect(simulate).toMatchObject({ runs: 1 });
    // fabench serve under load: 5 clients, 300 requests over loopback in smoke mode, every one answered 200.
    expect(lines.at(-1)).toMatchObject({ name: "serve_load", clients: 5, requests: 300, failed_requests: 0 });
  });

  it("refuses an unknown benchmark name with exit 2", { timeout: 150_000 }, () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/bench/run-all.ts", "nope"], {
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("bench: usage_error: unknown benchmark nope");
    expect(run.stdout).toBe("");
  });
});
