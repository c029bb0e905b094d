/**
 * `npm run bench [-- NAME…]`: runs the benchmarks (all, or those named) and prints one JSON line
 * per benchmark with its median and target. Benchmarks are not tests: the machines are shared
 * and noisy, so read medians and ratios, not single runs. Exits 1 when a target is missed.
 *
 * In smoke mode (FABENCH_BENCH_SMOKE=1, see stats.ts) targets are not judged: the inputs are tiny
 * and each benchmark runs once, so its figures say only that it ran. Each line then carries
 * `"smoke": true, "target_judged": false` and no `met`, and the exit code does not depend on any
 * timing.
 */
import { runIdentityBench } from "./identity.ts";
import { runPackageBench } from "./package.ts";
import { runReferenceMatrixBench } from "./reference-matrix.ts";
import { runScoreBench } from "./score-run.ts";
import { runScoringBench } from "./scoring.ts";
import { runServeBench } from "./serve.ts";
import { runSimulateBench } from "./simulate.ts";
import { runStartupBench } from "./startup.ts";
import { SMOKE, type BenchResult } from "./stats.ts";

type Results = BenchResult | readonly BenchResult[];
const BENCHES: Record<string, () => Results | Promise<Results>> = {
  identity: runIdentityBench,
  scoring: runScoringBench,
  "reference-matrix": runReferenceMatrixBench,
  "score-run": runScoreBench,
  simulate: runSimulateBench,
  startup: runStartupBench,
  package: runPackageBench,
  serve: runServeBench,
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const unknown = wanted.filter((name) => !(name in BENCHES));
if (unknown.length > 0) {
  process.stderr.write(
    `bench: usage_error: unknown benchmark ${unknown.join(", ")}; known: ${Object.keys(BENCHES).join(", ")}\n`,
  );
  process.exit(2);
}
let missed = 0;
for (const [name, bench] of Object.entries(BENCHES)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  const results = await bench();
  for (const result of Array.isArray(results) ? results : [results]) {
    if (SMOKE) {
      const { met: _notJudged, ...figures } = result;
      process.stdout.write(`${JSON.stringify({ ...figures, smoke: true, target_judged: false })}\n`);
      continue;
    }
    if (!result.met) missed++;
    process.stdout.write(`${JSON.stringify(result)}\n`);
  }
}
process.exitCode = missed === 0 ? 0 : 1;
