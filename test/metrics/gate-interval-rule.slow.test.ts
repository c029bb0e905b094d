/**
 * The preregistered rule, run exactly as the protocol states it (`simulate coverage --select`: the
 * rule's eight scenarios, 4,000 datasets, 1,000 iterations, its seed): the protocol's gate_interval
 * must be the rule's pick, and on the four scenarios #20's independent study reports, the simulator
 * must reproduce that study within Monte Carlo error. Deterministic for the seed — this pins the
 * figures of docs/statistics.md and catches a protocol or simulator change that would move the pick. It is the
 * slowest test (several minutes), and the only one that runs the rule at full size.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { CoverageStudy } from "../../src/metrics/simulate/index.ts";
import { runCli } from "../helpers/cli.ts";

/** The table: coverage / type I at −0.02 / P(pass) at true 0. */
const STUDY: Record<string, Record<"bootstrap_t" | "skew_t", [number, number, number]>> = {
  "near-null": { bootstrap_t: [0.955, 0.032, 0.432], skew_t: [0.946, 0.031, 0.44] },
  "rare-total-miss": { bootstrap_t: [0.977, 0.01, 0.059], skew_t: [0.953, 0.025, 0.151] },
  "heterogeneous-margin": { bootstrap_t: [0.984, 0.006, 0.039], skew_t: [0.961, 0.018, 0.143] },
  "exact-null": { bootstrap_t: [0.944, 0.025, 0.365], skew_t: [0.945, 0.017, 0.349] },
};

describe("the gate-interval rule at full size", () => {
  it("picks the protocol's gate_interval, and reproduces #20's independent study within Monte Carlo error", {
    timeout: 1_800_000,
  }, async () => {
    const run = await runCli(["simulate", "coverage", "--select", "--json"]);
    expect(run.code, run.err).toBe(0);
    const study = JSON.parse(run.out) as CoverageStudy;
    const protocol = JSON.parse(readFileSync("manifests/preregistration.json", "utf8"));
    expect(study.selection).toMatchObject({
      preregistered: true,
      selected: protocol.statistics.gate_interval,
      protocol_agrees: true,
    });
    expect(study.results.map((r) => r.scenario)).toEqual(protocol.statistics.gate_interval_rule.scenarios);
    for (const [name, methods] of Object.entries(STUDY)) {
      const result = study.results.find((r) => r.scenario === name);
      for (const [method, [coverage, typeOne, power]] of Object.entries(methods)) {
        const got = result?.methods[method as "bootstrap_t" | "skew_t"];
        // The bound for coverage; the other two at about three Monte Carlo standard errors.
        const close = {
          coverage: Math.abs((got?.coverage ?? Number.NaN) - coverage) <= 0.012,
          type_one_error: Math.abs((got?.type_one_error ?? Number.NaN) - typeOne) <= 0.01,
          power_at_zero: Math.abs((got?.power_at_zero ?? Number.NaN) - power) <= 0.025,
        };
        expect([name, method, close]).toEqual([
          name,
          method,
          { coverage: true, type_one_error: true, power_at_zero: true },
        ]);
      }
    }
  });
});
