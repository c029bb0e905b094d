/**
 * One rule family per route and parameter across the corpus (`rule_family_mismatch`): the same
 * argument of the same route is compared the same way in every task, as the API it imitates would
 * treat it — an identifier exactly, a date-time as an instant, a free text after normalisation, a
 * search query by its identifying terms. A task whose rules for a route's parameter belong to
 * another family than most tasks' is reported, naming the family expected.
 */
import type { ArgumentRule, Task } from "../task.ts";

export const RULE_FAMILIES = {
  identifier: ["eq", "one_of", "state"],
  instant: ["instant", "state as: instant", "fits_slot"],
  text: ["eq_text", "nonempty", "contains_state"],
  search: ["terms"],
} as const;

export type RuleFamily = keyof typeof RULE_FAMILIES;

/** Ties between families are broken in this order, so the expected family is always one. */
const ORDER = Object.keys(RULE_FAMILIES) as RuleFamily[];

export function ruleFamily(rule: ArgumentRule): RuleFamily {
  if ("instant" in rule || "fits_slot" in rule) return "instant";
  if ("state" in rule) return rule.as === "instant" ? "instant" : "identifier";
  if ("eq_text" in rule || "nonempty" in rule || "contains_state" in rule) return "text";
  return "terms" in rule ? "search" : "identifier";
}

export interface RuleFamilyProblem {
  readonly code: "rule_family_mismatch";
  /** The task the problem is reported on. */
  readonly index: number;
  readonly message: string;
}

/** route × parameter → family → the tasks (indices, each once) whose rules there are of it. */
function familiesUsed(tasks: readonly Task[]): Map<string, Map<RuleFamily, number[]>> {
  const used = new Map<string, Map<RuleFamily, number[]>>();
  tasks.forEach((task, index) => {
    for (const response of task.executor_fixture.responses)
      for (const [name, rule] of Object.entries(response.argument_rules)) {
        const key = `${response.route_id} ${name}`;
        const byFamily = used.get(key) ?? new Map<RuleFamily, number[]>();
        used.set(key, byFamily);
        const family = ruleFamily(rule);
        const indices = byFamily.get(family) ?? [];
        byFamily.set(family, indices);
        if (indices.at(-1) !== index) indices.push(index);
      }
  });
  return used;
}

export function ruleFamilyProblems(tasks: readonly Task[]): RuleFamilyProblem[] {
  const problems: RuleFamilyProblem[] = [];
  for (const [key, byFamily] of familiesUsed(tasks)) {
    if (byFamily.size < 2) continue;
    const count = (f: RuleFamily) => byFamily.get(f)?.length ?? 0;
    const expected = ORDER.reduce((best, f) => (count(f) > count(best) ? f : best));
    const total = new Set([...byFamily.values()].flat()).size;
    const tie = ORDER.some((f) => f !== expected && count(f) === count(expected))
      ? " (a tie, broken in family order)"
      : "";
    for (const family of ORDER) {
      if (family === expected) continue;
      for (const index of byFamily.get(family) ?? [])
        problems.push({
          code: "rule_family_mismatch",
          index,
          message: `${key}: a rule of the ${family} family (${RULE_FAMILIES[family].join(", ")}) where ${count(expected)} of the ${total} tasks that rule it use the ${expected} family (${RULE_FAMILIES[expected].join(", ")})${tie}`,
        });
    }
  }
  return problems.sort((a, b) => a.index - b.index);
}
