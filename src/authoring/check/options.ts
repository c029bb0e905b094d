/**
 * Enumerations the agent can see: a text field whose value is one of a set the system defines
 * lists `options`, spelled as the records spell them, and the gold is one of them — compared as
 * the scorer compares text (`normalizeText`), so an answer written as an option scores. Forbidden
 * values need not be options (a queue monitor's stale "queued" is one, but need not be).
 */
import { normalizeText } from "../../core/index.ts";
import type { AnswerField, Task } from "../task.ts";
import type { RuleProblem, TaskRule } from "./context.ts";

/** Whether a field holds text: a `text` field or a list of text items. */
function holdsText(field: AnswerField): boolean {
  return field.kind === "text" || (field.kind === "list" && field.item_kind === "text");
}

function fieldProblems(task: Task, field: AnswerField, options: readonly string[]): RuleProblem[] {
  if (!holdsText(field))
    return [
      {
        code: "options_on_wrong_kind",
        message: `answer field ${field.key} is a ${field.kind}${field.item_kind ? ` of ${field.item_kind}` : ""}; only a text field or a list of text lists options`,
      },
    ];
  const problems: RuleProblem[] = [];
  const seen = new Map<string, string>();
  for (const option of options) {
    const normal = normalizeText(option);
    const earlier = seen.get(normal);
    if (earlier !== undefined)
      problems.push({
        code: "options_duplicate",
        message: `answer field ${field.key} lists ${JSON.stringify(option)} and ${JSON.stringify(earlier)}, the same text once normalised`,
      });
    else seen.set(normal, option);
  }
  for (const fact of task.required_facts.filter((f) => f.key === field.key)) {
    const golds = Array.isArray(fact.value) ? fact.value : [fact.value];
    for (const gold of golds)
      if (typeof gold !== "string" || !seen.has(normalizeText(gold)))
        problems.push({
          code: "gold_not_in_options",
          message: `the gold ${JSON.stringify(gold)} of ${field.key} is none of its options (${options.join(", ")})`,
        });
  }
  return problems;
}

export const optionRules: Record<string, TaskRule> = {
  options(task) {
    return task.answer_fields.flatMap((field) =>
      field.options === undefined ? [] : fieldProblems(task, field, field.options),
    );
  },
};
