/** How endpoints and the conversation are shown to an agent: the same rendering for every agent. */
import { compareCodePoints } from "../../core/index.js";
/** Tool text, endpoint text, the safety flags and the typed outputs (with units). */
export function renderTool(e) {
    const flags = [
        e.read_only ? "Read-only." : null,
        e.destructive ? "DESTRUCTIVE: changes cannot be undone." : null,
    ].filter((f) => f !== null);
    const outputs = e.outputs.map((o) => `${o.name} (${o.type}${o.unit ? `, ${o.unit}` : ""})`).join(", ");
    const description = [e.tool_description, e.description, ...flags, outputs ? `Returns: ${outputs}.` : ""]
        .filter((p) => p !== "")
        .join(" ");
    return { name: e.function_name, description, parameters: e.parameters };
}
/** The tool definitions for a visible set, sorted by route id (rank order never reaches the agent). */
export function renderTools(endpoints) {
    return [...endpoints].sort((a, b) => compareCodePoints(a.route_id, b.route_id)).map(renderTool);
}
