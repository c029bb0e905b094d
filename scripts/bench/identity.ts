/**
 * Benchmark: identity validation of a generated 100,000-row surface (a protocol of 25 strata ×
 * 40 languages × 100 tasks per cell). Times reading the JSONL text into rows and validating it
 * against the plan (normalising every query), over several runs; prints the median and rows/s.
 *
 *   npm run -s bench -- identity        (target: under 2 s per validation on one core)
 */
import { readFileSync } from "node:fs";
import {
  buildPlan,
  parseCorpusText,
  parseProtocol,
  validateIdentity,
  type Protocol,
} from "../../src/authoring/index.ts";
import { median, runs, SMOKE, type BenchResult } from "./stats.ts";

const STRATA = 25;
const LANGUAGES = 40;
const PER_CELL = SMOKE ? 2 : 100;
const RUNS = runs(5);

// Mixed scripts, so the case-folding path (not only the ASCII fast path) is exercised.
const WORDINGS = [
  "What is the Young's modulus of sample",
  "시료의 영률을 알려 주세요",
  "¿Cuál es el módulo de la muestra",
  "試料のヤング率は",
  "Wie groß ist der Modul der Probe STRASSE",
];

function surfaceProtocol(): Protocol {
  const bundled = JSON.parse(readFileSync("manifests/preregistration.json", "utf8")) as Protocol;
  const protocol = {
    ...bundled,
    protocol_id: "bench-100k",
    answer_task_strata: Array.from({ length: STRATA }, (_, i) => `stratum_${i}`),
    corrective_strata: [],
    languages: Array.from({ length: LANGUAGES }, (_, i) => ({
      id: `lang${i}`,
      description: `language ${i}`,
    })),
    tasks_per_cell: PER_CELL,
    expected_cell_count: STRATA * LANGUAGES,
    expected_task_count: STRATA * LANGUAGES * PER_CELL,
  };
  const parsed = parseProtocol(protocol, "bench");
  if (!parsed.ok) throw new Error(parsed.problems.map((p) => p.message).join("; "));
  return parsed.value;
}

export function runIdentityBench(): BenchResult {
  const plan = buildPlan(surfaceProtocol());
  const text = plan.slots
    .map((slot, i) => JSON.stringify({ ...slot, query: `[F${i}] ${WORDINGS[i % WORDINGS.length]} ${i}?` }))
    .join("\n");
  const timings: number[] = [];
  let ok = false;
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const { rows } = parseCorpusText(text, "surface.jsonl");
    const report = validateIdentity(rows, plan);
    timings.push(performance.now() - started);
    ok = report.ok && report.row_count === plan.slots.length;
  }
  if (!ok) throw new Error("the generated surface did not validate");
  const ms = median(timings);
  return {
    name: "identity_validation_100k",
    rows: plan.slots.length,
    median_ms: round(ms),
    min_ms: round(Math.min(...timings)),
    max_ms: round(Math.max(...timings)),
    runs: RUNS,
    rows_per_second: Math.round(plan.slots.length / (ms / 1000)),
    target: "median under 2000 ms",
    met: ms < 2000,
  };
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
