import { readFileSync } from "node:fs";
import { bootstrap, buildStatistics } from "../src/metrics/index.ts";
const input = JSON.parse(readFileSync("../shared/bench/bootstrap-input.json", "utf8"));
const stats = buildStatistics({ taskCount: input.tasks.length, conditions: input.conditions, baseline: "FULL", sizes: input.catalog_sizes, metrics: input.metrics, values: (c: string, s: number, m: string, t: number) => input.values[c]?.[String(s)]?.[m]?.[t] });
const tasks = input.tasks.map((t: any) => ({ id: t.semantic_task_id, stratum: t.answer_task_stratum, language: t.language }));
const out = [];
for (let i = 0; i < 12; i++) { const r = bootstrap(tasks, stats, { iterations: 10000, seed: 20260929, rng: "seedrandom", confidence: 0.95 }, () => performance.now()); out.push(Math.round(r.coreMs)); }
console.log(out.join(" "));
