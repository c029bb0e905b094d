/**
 * The text a search looks at, per endpoint: the fields the providers document for their own tool
 * search (Anthropic: "tool names, descriptions, argument names, and argument descriptions";
 * OpenAI's tool_search likewise reads names, descriptions and parameters) — here the rendered
 * function name and description the agent would be shown, then each parameter's name and
 * description in schema order. Both engines read exactly these fields.
 */
import type { Endpoint } from "../catalog/index.ts";
// The file, not the front door: the loop (execution/) imports this stage, so its index would close a cycle.
import { renderTool } from "../execution/render.ts";

/** Where a field came from; the regex ranking orders matches by it (name first). */
export type FieldKind = "name" | "description" | "argument_name" | "argument_description";

export interface SearchField {
  readonly kind: FieldKind;
  readonly text: string;
}

/** Rank of a field kind in the regex ordering: a name match says most, an argument description least. */
export const FIELD_RANK: Readonly<Record<FieldKind, number>> = {
  name: 0,
  description: 1,
  argument_name: 2,
  argument_description: 3,
};

/** The search fields of one endpoint, in a fixed order (name, description, then per parameter). */
export function searchFields(endpoint: Endpoint): SearchField[] {
  const tool = renderTool(endpoint);
  const fields: SearchField[] = [
    { kind: "name", text: tool.name },
    { kind: "description", text: tool.description },
  ];
  for (const [name, schema] of Object.entries(endpoint.parameters.properties)) {
    fields.push({ kind: "argument_name", text: name });
    const description = schema["description"];
    // A parameter without a description has no such field (not an empty one).
    if (typeof description === "string" && description !== "")
      fields.push({ kind: "argument_description", text: description });
  }
  return fields;
}
