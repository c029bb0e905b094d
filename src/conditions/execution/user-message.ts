/**
 * The user message every agent receives: the request, then the answer form — each field's key,
 * kind, unit and description, never a value. One rendering for every agent and condition, so the
 * bytes an agent sees depend on the task alone.
 */
import type { AnswerField, Task } from "../../authoring/index.ts";

export const ANSWER_FORM_HEADING =
  "Answer form: fill every field from the evidence the tools return; give each number in the unit shown.";

export function renderUserMessage(task: Pick<Task, "query" | "answer_fields">): string {
  return [task.query.trim(), "", ANSWER_FORM_HEADING, ...task.answer_fields.map(renderField)].join("\n");
}

/** `- key (number, unit MPa, a difference): description` */
export function renderField(field: AnswerField): string {
  return `- ${field.key} (${kindText(field)}): ${field.description}`;
}

function kindText(field: AnswerField): string {
  if (field.kind === "number") {
    const unit = field.unit === null ? "no unit" : `unit ${field.unit}`;
    return field.difference === true ? `number, ${unit}, a difference` : `number, ${unit}`;
  }
  if (field.kind === "list") {
    const items = field.item_kind ?? "text";
    const order = field.ordered === true ? "in order" : "any order";
    const unit = field.unit === null ? "" : `, unit ${field.unit}`;
    return `list of ${items}${unit}, ${order}`;
  }
  if (field.kind === "boolean") return "boolean: true or false";
  return field.kind;
}
