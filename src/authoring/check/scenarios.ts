/**
 * One scenario per task. The bootstrap counts the 144 tasks as independent units; a corpus that
 * tells a few stories once per language gives intervals far narrower than a real model deserves.
 * These rules look past the wording, at what a task makes an agent do:
 *
 * - a task's **skeleton** is its stratum, the ordered tools of its required routes and the multiset
 *   of its answer fields' kinds. `skeleton_overused`: one skeleton in more than 3 tasks;
 *   `skeleton_across_languages`: within a stratum, one skeleton in more than 2 languages;
 *   `skeletons_too_few`: fewer distinct skeletons than two thirds of the tasks (96 of 144).
 * - `entity_reused`: an identifier (a material, lot, paper, instrument, sample, artifact or job id
 *   such as MAT-4471-TI or P-2019-0443) named by the queries or the id rules of two tasks.
 * - `derived_comparisons_too_few`: fewer than two thirds of the multi-source tasks (16 of 24) score
 *   the comparison they ask for as a required fact computed from the sources.
 */
import { compareCodePoints } from "../../core/index.ts";
import { isDerived, type Task } from "../task.ts";

export const MAX_TASKS_PER_SKELETON = 3;
export const MAX_LANGUAGES_PER_SKELETON = 2;
/** Distinct skeletons (and derived multi-source tasks) as a share of the tasks: 96 of 144. */
export const MIN_DISTINCT_SHARE = 2 / 3;
/** The stratum whose tasks compare sources; its comparison must itself be scored. */
export const COMPARISON_STRATUM = "multi_source_comparison";

/** An identifier as the corpus writes one: letters, a dash, at least three digits, more parts. */
const ENTITY = /\b[A-Z]{1,6}-\d{3,}(?:-[A-Z0-9]+)*\b/g;
/** Names of that shape that are not entities of a task: algorithms any task may name. */
const NOT_ENTITIES: ReadonlySet<string> = new Set(["SHA-224", "SHA-256", "SHA-384", "SHA-512"]);

export interface ScenarioProblem {
  readonly code:
    | "skeleton_overused"
    | "skeleton_across_languages"
    | "skeletons_too_few"
    | "entity_reused"
    | "derived_comparisons_too_few";
  /** The task the problem is reported on (a later one of a repeat; the first task for a corpus-wide count). */
  readonly index: number;
  readonly message: string;
}

export function skeletonOf(
  task: Pick<Task, "answer_task_stratum" | "required_routes" | "answer_fields">,
): string {
  const tools = task.required_routes.map((route) => route.split(".")[0]).join(">");
  const kinds = task.answer_fields
    .map((f) => f.kind)
    .sort(compareCodePoints)
    .join(",");
  return `${task.answer_task_stratum} | ${tools} | ${kinds}`;
}

/** The identifiers a task names: in its query, and in the `eq`/`one_of` values of its argument rules. */
export function entitiesOf(task: Pick<Task, "query" | "executor_fixture">): Set<string> {
  const texts = [task.query];
  for (const response of task.executor_fixture.responses)
    for (const rule of Object.values(response.argument_rules)) {
      if ("eq" in rule) texts.push(JSON.stringify(rule.eq));
      if ("one_of" in rule) texts.push(JSON.stringify(rule.one_of));
    }
  return new Set(
    texts
      .flatMap((text) => [...text.matchAll(ENTITY)].map((m) => m[0]))
      .filter((id) => !NOT_ENTITIES.has(id)),
  );
}

export function scenarioProblems(tasks: readonly Task[]): ScenarioProblem[] {
  return [...skeletonProblems(tasks), ...entityProblems(tasks), ...derivedProblems(tasks)];
}

function skeletonProblems(tasks: readonly Task[]): ScenarioProblem[] {
  const problems: ScenarioProblem[] = [];
  const seen = new Map<string, { ids: string[]; languages: Set<string> }>();
  tasks.forEach((task, index) => {
    const skeleton = skeletonOf(task);
    const entry = seen.get(skeleton) ?? { ids: [], languages: new Set<string>() };
    seen.set(skeleton, entry);
    const newLanguage = !entry.languages.has(task.language);
    entry.ids.push(task.semantic_task_id);
    entry.languages.add(task.language);
    if (entry.ids.length > MAX_TASKS_PER_SKELETON)
      problems.push({
        code: "skeleton_overused",
        index,
        message: `skeleton "${skeleton}" is the skeleton of ${entry.ids.length} tasks (at most ${MAX_TASKS_PER_SKELETON}): ${entry.ids.join(", ")}`,
      });
    if (newLanguage && entry.languages.size > MAX_LANGUAGES_PER_SKELETON)
      problems.push({
        code: "skeleton_across_languages",
        index,
        message: `skeleton "${skeleton}" appears in ${entry.languages.size} languages of its stratum (at most ${MAX_LANGUAGES_PER_SKELETON}): ${[...entry.languages].join(", ")}`,
      });
  });
  const needed = Math.ceil(tasks.length * MIN_DISTINCT_SHARE);
  if (tasks.length > 0 && seen.size < needed)
    problems.push({
      code: "skeletons_too_few",
      index: 0,
      message: `${seen.size} distinct skeletons among ${tasks.length} tasks; at least ${needed} (two thirds) are needed`,
    });
  return problems;
}

function entityProblems(tasks: readonly Task[]): ScenarioProblem[] {
  const problems: ScenarioProblem[] = [];
  const owner = new Map<string, string>();
  tasks.forEach((task, index) => {
    for (const entity of [...entitiesOf(task)].sort(compareCodePoints)) {
      const first = owner.get(entity);
      if (first === undefined) owner.set(entity, task.semantic_task_id);
      else problems.push({ code: "entity_reused", index, message: `${entity} is named by ${first} too` });
    }
  });
  return problems;
}

function derivedProblems(tasks: readonly Task[]): ScenarioProblem[] {
  const comparison = tasks
    .map((task, index) => ({ task, index }))
    .filter(({ task }) => task.answer_task_stratum === COMPARISON_STRATUM);
  if (comparison.length === 0) return [];
  const derived = comparison.filter(({ task }) =>
    task.required_facts.some((f) => isDerived(f.evidence)),
  ).length;
  const needed = Math.ceil(comparison.length * MIN_DISTINCT_SHARE);
  return derived >= needed
    ? []
    : [
        {
          code: "derived_comparisons_too_few",
          index: (comparison[0] as { index: number }).index,
          message: `${derived} of ${comparison.length} ${COMPARISON_STRATUM} tasks score their comparison as a derived required fact; at least ${needed} are needed`,
        },
      ];
}
