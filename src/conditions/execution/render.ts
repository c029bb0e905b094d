/** How endpoints and the conversation are shown to an agent: the same rendering for every agent. */
import { compareCodePoints } from "../../core/index.ts";
import type { Endpoint } from "../catalog/schema.ts";
import type { ToolDefinition } from "../../providers/index.ts";

export type { Message, ToolDefinition } from "../../providers/index.ts";

/** What a destructive tool's description says, the flag an agent reads it by. */
export const DESTRUCTIVE_FLAG = "DESTRUCTIVE: changes cannot be undone.";

/** Tool text, endpoint text, the safety flags and the typed outputs (with units). */
export function renderTool(e: Endpoint): ToolDefinition {
  const flags = [e.read_only ? "Read-only." : null, e.destructive ? DESTRUCTIVE_FLAG : null].filter(
    (f) => f !== null,
  );
  const outputs = e.outputs.map((o) => `${o.name} (${o.type}${o.unit ? `, ${o.unit}` : ""})`).join(", ");
  const description = [e.tool_description, e.description, ...flags, outputs ? `Returns: ${outputs}.` : ""]
    .filter((p) => p !== "")
    .join(" ");
  return { name: e.function_name, description, parameters: e.parameters };
}

/** The tool definitions for a visible set, sorted by route id (rank order never reaches the agent). */
export function renderTools(endpoints: readonly Endpoint[]): ToolDefinition[] {
  return [...endpoints].sort((a, b) => compareCodePoints(a.route_id, b.route_id)).map(renderTool);
}
