/**
 * Checks hand-authored task files (tasks/authored/<stratum>.json) while they are being written:
 * every task against the task schema and every content rule, the independence rules across all
 * given files, and each file's coverage of its stratum's plan slots. Prints one line per problem
 * and exits 1 when there is any; then the warning rules' findings (`warning: …`), which never fail.
 *
 *   npx tsx scripts/check-authored.ts tasks/authored/*.json
 */
import { readFileSync } from "node:fs";
import {
  AUTHORED_FORMAT,
  CONTENT_RULES,
  fieldNameShare,
  WARNING_RULES,
  taskSchema,
  type Task,
} from "../src/authoring/index.ts";
import { independenceProblems } from "../src/authoring/check/independence.ts";
import { scenarioProblems } from "../src/authoring/check/scenarios.ts";
import { ruleFamilyProblems } from "../src/authoring/check/rule-families.ts";
import { checkContext, loadBenchmark } from "../src/world/index.ts";
import { DEFAULTS } from "../src/cli/options.ts";

const files = process.argv.slice(2);
const loaded = loadBenchmark({
  protocol: DEFAULTS.protocol,
  plan: DEFAULTS.plan,
  catalogs: DEFAULTS.catalogs,
  forbiddenCorpus: [],
});
const context = await checkContext(loaded);
const slots = new Map(loaded.plan.slots.map((s) => [s.semantic_task_id, s]));
const problems: string[] = [];
const warnings: string[] = [];
const all: Array<{ file: string; task: Task }> = [];
for (const file of files) {
  const doc = JSON.parse(readFileSync(file, "utf8")) as {
    format?: string;
    stratum?: string;
    tasks?: unknown[];
  };
  if (doc.format !== AUTHORED_FORMAT) problems.push(`${file}: format must be "${AUTHORED_FORMAT}"`);
  const seen = new Set<string>();
  for (const [i, raw] of (doc.tasks ?? []).entries()) {
    const parsed = taskSchema.safeParse(raw);
    const id = (raw as { semantic_task_id?: string }).semantic_task_id ?? `tasks[${i}]`;
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        problems.push(`${file}: ${id}: invalid_task: ${issue.path.join(".")}: ${issue.message}`);
      continue;
    }
    const task = parsed.data;
    const slot = slots.get(task.semantic_task_id);
    if (!slot) problems.push(`${file}: ${id}: unknown_semantic_task_id`);
    else if (slot.answer_task_stratum !== task.answer_task_stratum || slot.language !== task.language)
      problems.push(`${file}: ${id}: stratum or language differs from the plan's slot`);
    if (task.answer_task_stratum !== doc.stratum)
      problems.push(`${file}: ${id}: the task's stratum is not the file's (${doc.stratum})`);
    if (seen.has(task.semantic_task_id)) problems.push(`${file}: ${id}: duplicate_semantic_task_id`);
    seen.add(task.semantic_task_id);
    for (const rule of Object.values(CONTENT_RULES))
      for (const p of rule(task, context)) problems.push(`${file}: ${id}: ${p.code}: ${p.message}`);
    for (const rule of Object.values(WARNING_RULES))
      for (const p of rule(task, context)) warnings.push(`${file}: ${id}: ${p.code}: ${p.message}`);
    all.push({ file, task });
  }
  const wanted = loaded.plan.slots
    .filter((s) => s.answer_task_stratum === doc.stratum)
    .map((s) => s.semantic_task_id);
  const missing = wanted.filter((w) => !seen.has(w));
  if (missing.length > 0)
    problems.push(
      `${file}: ${missing.length} slot(s) of ${doc.stratum} have no task yet: ${missing.join(", ")}`,
    );
}
for (const p of [
  ...independenceProblems(all.map((a) => a.task)),
  ...scenarioProblems(all.map((a) => a.task)),
  ...ruleFamilyProblems(all.map((a) => a.task)),
]) {
  const { file, task } = all[p.index] as (typeof all)[number];
  problems.push(`${file}: ${task.semantic_task_id}: ${p.code}: ${p.message}`);
}
for (const p of problems) console.log(p);
for (const w of warnings) console.log(`warning: ${w}`);
const share = fieldNameShare(all.map((a) => a.task));
console.log(
  `${share.named_as_form_key} of ${share.required_facts} required fact(s) sit in a record field named as their form key (share ${share.share ?? "n/a"})`,
);
console.log(
  `${all.length} task(s) in ${files.length} file(s): ${problems.length === 0 ? "ok" : `${problems.length} problem(s)`}` +
    (warnings.length === 0 ? "" : `; ${warnings.length} warning(s), reported and not failed`),
);
process.exit(problems.length === 0 ? 0 : 1);
