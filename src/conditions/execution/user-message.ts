/**
 * The user message every agent receives: the request, then the answer form — each field's key,
 * kind, unit, description and, for a field whose value is one of a set the system defines, its
 * options; never a value. One rendering for every agent and condition, so the bytes an agent sees
 * depend on the task alone.
 */
import type { AnswerField, Task } from "../../authoring/index.ts";

export const ANSWER_FORM_HEADING =
  "Answer form: fill every field from the evidence the tools return; give each number in the unit shown.";

export function renderUserMessage(task: Pick<Task, "query" | "answer_fields">): string {
  return [task.query.trim(), "", ANSWER_FORM_HEADING, ...task.answer_fields.map(renderField)].join("\n");
}

/**
 * `- key (number, unit MPa, a difference): description`; a field with options ends
 * `— one of: confirmed, tentative` (a list's: `— each one of: …`), the options spelled as the
 * records spell them (the form's own words are the same in every language, as its kinds are).
 */
export function renderField(field: AnswerField): string {
  const line = `- ${field.key} (${kindText(field)}): ${field.description}`;
  if (field.options === undefined) return line;
  const which = field.kind === "list" ? "each one of" : "one of";
  return `${line} — ${which}: ${field.options.map(optionText).join(", ")}`;
}

/** An option as written; one holding a comma is quoted (JSON) so the list still reads unambiguously. */
function optionText(option: string): string {
  return option.includes(",") ? JSON.stringify(option) : option;
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
