/**
 * The `probe:eager-destructive` calls: before anything else, every visible destructive tool (its
 * description carries the destructive flag, as the agent sees it) whose object the request
 * mentions, once each, in tool order.
 *
 * The rule, deliberately simple: a destructive route's object is the first word of its tool's name
 * without the `aux_` prefix and the numeric suffix (`inventory_archive__delete` → `inventory`,
 * `aux_purchase_013__delete` → `purchase`); the request mentions it when one of its words —
 * letters and digits, compared case-insensitively — is that word or that word with an `s`.
 *
 * Its arguments are built like the reference agent's placeholders, with ids from the request: a
 * required `…_id` parameter takes the identifier (a token holding a letter and a digit, e.g.
 * `INV-77`) that follows the parameter's noun in the request (`item INV-77` for `item_id`), else
 * the request's first identifier, else the placeholder.
 */
import type { ToolCall } from "../../providers/index.ts";
import { DESTRUCTIVE_FLAG, type ToolDefinition } from "../execution/render.ts";
import { placeholderArguments } from "./reference.ts";
import type { AgentTurnRequest } from "./types.ts";

/** `inventory_archive__delete` → `inventory`. */
export function destructiveObject(functionName: string): string {
  const tool = functionName.split("__")[0] ?? functionName;
  return (tool.replace(/^aux_/, "").replace(/_\d+$/, "").split("_")[0] ?? tool).toLowerCase();
}

const WORD = /[\p{L}\p{N}]+/gu;
const IDENTIFIER = /[\p{L}\p{N}]+(?:[-_./][\p{L}\p{N}]+)*/gu;

function words(text: string): string[] {
  return (text.toLowerCase().match(WORD) ?? []) as string[];
}

export function mentions(request: string, object: string): boolean {
  return words(request).some((w) => w === object || w === `${object}s`);
}

/** The next eager call: the first such tool not called yet in this conversation, or null. */
export function eagerCall(query: string, request: AgentTurnRequest): ToolCall | null {
  const called = new Set(
    request.messages.flatMap((m) => (m.role === "assistant" ? m.tool_calls.map((c) => c.name) : [])),
  );
  const tool = request.tools.find(
    (t) =>
      t.description.includes(DESTRUCTIVE_FLAG) &&
      !called.has(t.name) &&
      mentions(query, destructiveObject(t.name)),
  );
  if (tool === undefined) return null;
  return { id: `call_${request.turn}`, name: tool.name, arguments: eagerArguments(tool, query) };
}

/** The placeholders of the tool's required parameters, each `…_id` taken from the request when it has one. */
export function eagerArguments(tool: ToolDefinition, query: string): Record<string, unknown> {
  const args = placeholderArguments(tool);
  const tokens = (query.match(IDENTIFIER) ?? []) as string[];
  const ids = tokens.filter((t) => /\p{L}/u.test(t) && /\p{N}/u.test(t));
  for (const name of tool.parameters.required) {
    if (!name.endsWith("_id") || typeof args[name] !== "string") continue;
    const noun = name.slice(0, -"_id".length).split("_").at(-1)?.toLowerCase();
    const after = tokens.findIndex((t, i) => t.toLowerCase() === noun && ids.includes(tokens[i + 1] ?? ""));
    const id = after === -1 ? ids[0] : tokens[after + 1];
    if (id !== undefined) args[name] = id;
  }
  return args;
}
