/**
 * `npm run -s bench:bootstrap -- --data FILE [--rng seedrandom|python] [--iterations B] [--seed S] [--methods percentile|all]`
 * runs fabench's bootstrap on a `fabench-bootstrap-input/v1` file (../shared/bench/) and prints
 * one JSON line in the shape of ../shared/bench/bootstrap_numpy.py: core_ms (the bootstrap alone:
 * draws, sums, selection), total_ms (from reading the file), rng, iterations, seed, intervals.
 * With `--methods all` the calibrated intervals are computed too (the timed run includes them) and
 * each statistic gains `methods: {name: {low, high}}` for every interval method, so another
 * implementation of a method can be checked bound for bound.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { INTERVAL_METHODS } from "../../src/authoring/interval-methods.ts";
import { bootstrap, buildStatistics, type Interval, type RngName } from "../../src/metrics/index.ts";

interface InputFile {
  format: string;
  iterations: number;
  seed: number;
  conditions: string[];
  catalog_sizes: number[];
  metrics: string[];
  tasks: Array<{ semantic_task_id: string; answer_task_stratum: string; language: string }>;
  values: Record<string, Record<string, Record<string, Array<Array<number | null>>>>>;
}

const { values: args } = parseArgs({
  options: {
    data: { type: "string", default: "../shared/bench/bootstrap-input.json" },
    rng: { type: "string", default: "seedrandom" },
    iterations: { type: "string" },
    seed: { type: "string" },
    warmup: { type: "string", default: "4" },
    methods: { type: "string", default: "percentile" },
  },
});
if (args.methods !== "percentile" && args.methods !== "all") {
  process.stderr.write(`bench:bootstrap: usage_error: --methods takes percentile or all\n`);
  process.exit(2);
}
const calibrated = args.methods === "all";
if (args.rng !== "seedrandom" && args.rng !== "python") {
  process.stderr.write(`bench:bootstrap: usage_error: --rng takes seedrandom or python\n`);
  process.exit(2);
}
const totalStarted = performance.now();
const input = JSON.parse(readFileSync(args.data ?? "", "utf8")) as InputFile;
if (input.format !== "fabench-bootstrap-input/v1") {
  process.stderr.write(`${args.data}: bad_format: not a fabench-bootstrap-input/v1 file\n`);
  process.exit(2);
}
const iterations = args.iterations ? Number(args.iterations) : input.iterations;
const seed = args.seed ? Number(args.seed) : input.seed;
const statistics = buildStatistics({
  taskCount: input.tasks.length,
  conditions: input.conditions,
  baseline: "FULL",
  sizes: input.catalog_sizes,
  metrics: input.metrics,
  values: (condition, size, metric, task) => input.values[condition]?.[String(size)]?.[metric]?.[task],
});
// Warm-up runs (1,000 iterations each, same inputs; 4 by default) let the JIT compile the hot
// loops before the timed run, as any benchmark of a JIT-compiled runtime does; `--warmup 0`
// measures a cold process. The JSON line records how many ran.
const warmup = Number(args.warmup);
const taskList = input.tasks.map((t) => ({
  id: t.semantic_task_id,
  stratum: t.answer_task_stratum,
  language: t.language,
}));
for (let i = 0; i < warmup; i++)
  bootstrap(taskList, statistics, {
    iterations: 1000,
    seed,
    rng: args.rng as RngName,
    confidence: 0.95,
    calibrated,
  });
const result = bootstrap(
  taskList,
  statistics,
  { iterations, seed, rng: args.rng as RngName, confidence: 0.95, calibrated },
  () => performance.now(),
);
/** Every method's bounds under one key each; the percentile interval is the preregistered one. */
function withMethods(interval: Interval): Record<string, unknown> {
  const { calibrated: c, ...rest } = interval;
  if (c === undefined) return rest;
  const methods = Object.fromEntries(
    INTERVAL_METHODS.map((m) => [
      m,
      m === "percentile" ? { low: rest.low, high: rest.high } : { low: c[m].low, high: c[m].high },
    ]),
  );
  return { ...rest, se: c.se, df: c.df, methods };
}
const intervals = calibrated
  ? Object.fromEntries(Object.entries(result.intervals).map(([k, v]) => [k, withMethods(v)]))
  : result.intervals;
const totalMs = performance.now() - totalStarted;
const round = (ms: number) => Math.round(ms * 1000) / 1000;
process.stdout.write(
  `${JSON.stringify({ core_ms: round(result.coreMs), total_ms: round(totalMs), rng: args.rng === "python" ? "python-mt19937" : "seedrandom-alea", warmup_runs: warmup, iterations, seed, methods: args.methods, intervals })}\n`,
);
