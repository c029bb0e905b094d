/**
 * The text tool protocol, for models without native tool calling: the tools are described in the
 * system prompt, a call is `<tool_call>{"name": …, "arguments": {…}}</tool_call>` in the model's
 * text, and results come back as `<tool_result name="…">…</tool_result>` user messages. A call that
 * cannot be read is kept and marked malformed; the executor answers it with `malformed_tool_call`.
 * Arguments nested too deep or holding a number JSON cannot write end the episode instead.
 */
import { boundedArguments } from "./tool-arguments.ts";
import type { ProviderRequest, ToolCall, ToolDefinition } from "./types.ts";

const CALL = /<tool_call>([\s\S]*?)(?:<\/tool_call>|$)/g;

export function textToolsPrompt(tools: readonly ToolDefinition[]): string {
  const lines = tools.map(
    (t) => `- ${t.name}: ${t.description}\n  parameters: ${JSON.stringify(t.parameters)}`,
  );
  return [
    "",
    "## Tools",
    'To call a tool, write exactly one line <tool_call>{"name": "TOOL", "arguments": {...}}</tool_call> and stop.',
    "The result comes back in the next message inside <tool_result>…</tool_result>.",
    tools.length === 0 ? "No tools are available right now." : "Available tools:",
    ...lines,
  ].join("\n");
}

export function parseTextToolCalls(text: string, turn: number): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const match of text.matchAll(CALL)) {
    const body = (match[1] ?? "").trim();
    const id = `text_${turn}_${calls.length}`;
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      calls.push({
        id,
        name: "",
        arguments: body,
        malformed: match[0].endsWith("</tool_call>")
          ? "the call is not valid JSON"
          : "the call is not closed with </tool_call>",
      });
      continue;
    }
    const record = (typeof value === "object" && value !== null ? value : {}) as {
      name?: unknown;
      arguments?: unknown;
    };
    if (typeof record.name !== "string")
      calls.push({ id, name: "", arguments: body, malformed: "the call has no tool name" });
    // Too deep or holding Infinity, the arguments end the episode (tool-arguments.ts).
    else
      calls.push({ id, name: record.name, arguments: boundedArguments(record.name, record.arguments ?? {}) });
  }
  return calls;
}

/** The same conversation for a model that reads tools and results as text. */
export function asTextProtocol(request: ProviderRequest): ProviderRequest {
  const messages = request.messages.map((m) => {
    if (m.role === "tool")
      return { role: "user" as const, content: `<tool_result name="${m.name}">${m.content}</tool_result>` };
    if (m.role === "assistant") return { ...m, tool_calls: [] };
    return m;
  });
  return { ...request, system: request.system + textToolsPrompt(request.tools), messages, tools: [] };
}
