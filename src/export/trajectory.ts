/**
 * An episode's turns as Inspect chat messages: the user's request, then each turn's assistant
 * message with its tool calls, one tool message per call with the reply the agent received (the
 * observation, as the loop serialised it), and the user messages the loop adds after a request for
 * more tools. A run record keeps turns loosely typed; the fields read here are parsed here.
 */
import { z } from "zod";
import { MORE_TOOLS_SHOWN, NO_MORE_TOOLS } from "../conditions/execution/index.ts";
import type { RunRecord } from "../conditions/runner/index.ts";
import type { InspectMessage, ToolCall } from "./inspect-schema.ts";

const turnSchema = z.object({
  turn: z.number().int(),
  text: z.string(),
  tool_calls: z.array(z.object({ name: z.string(), arguments: z.unknown() })),
  observations: z.array(z.unknown()),
  event: z.string(),
  model: z.string().nullable().optional(),
  refused_tool_calls: z.number().int().optional(),
});

const attemptSchema = z.object({
  turn: z.number().int(),
  call_index: z.number().int(),
  outcome: z.string(),
  error_code: z.string().nullable(),
});

/** What the loop tells the agent after a turn that asked for more tools (loop.ts, widening.ts). */
const AFTER_EVENT: Record<string, string> = {
  more_tools_shown: MORE_TOOLS_SHOWN,
  no_more_tools: NO_MORE_TOOLS,
  // The gold-triggered variant's message is the protocol's `incomplete_task_message`, not in the record.
  incomplete_widened: "(the protocol's incomplete_task_message: gold-triggered widening)",
};

export interface TrajectoryInput {
  readonly sampleId: string;
  readonly record: RunRecord;
  /** The user message the agent received: the request and its answer form. */
  readonly userMessage: string;
  /** The system prompt, when its hash is the run's. */
  readonly systemPrompt: string | null;
  readonly model: string;
}

/** Tool-call arguments must be an object in Inspect; anything else the agent wrote is kept under `arguments`. */
function argumentsObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : { arguments: value };
}

export function episodeMessages(input: TrajectoryInput): InspectMessage[] {
  const { sampleId, record } = input;
  let next = 0;
  const id = () => `${sampleId}-m${next++}`;
  const messages: InspectMessage[] = [];
  if (input.systemPrompt !== null)
    messages.push({ id: id(), role: "system", content: input.systemPrompt, source: "input", metadata: null });
  messages.push({
    id: id(),
    role: "user",
    content: input.userMessage,
    source: "input",
    metadata: null,
    tool_call_id: null,
  });
  const attempts = new Map(
    record.attempts.map((raw) => {
      const a = attemptSchema.parse(raw);
      return [`${a.turn}:${a.call_index}`, a] as const;
    }),
  );
  for (const raw of record.turns) {
    const turn = turnSchema.parse(raw);
    const calls: ToolCall[] = turn.tool_calls.map((call, index) => ({
      id: `call_${turn.turn}_${index}`,
      function: call.name,
      arguments: argumentsObject(call.arguments),
      parse_error: null,
      view: null,
      type: "function",
    }));
    messages.push({
      id: id(),
      role: "assistant",
      content: turn.text,
      source: "generate",
      metadata: { turn: turn.turn, event: turn.event, refused_tool_calls: turn.refused_tool_calls ?? 0 },
      tool_calls: calls.length > 0 ? calls : null,
      model: turn.model ?? input.model,
    });
    for (const [index, call] of calls.entries()) {
      const attempt = attempts.get(`${turn.turn}:${index}`);
      messages.push({
        id: id(),
        role: "tool",
        content: JSON.stringify(turn.observations[index] ?? null),
        source: null,
        metadata: attempt ? { outcome: attempt.outcome, error_code: attempt.error_code } : null,
        tool_call_id: call.id,
        function: call.function,
        error:
          attempt?.outcome === "error" ? { type: "unknown", message: attempt.error_code ?? "error" } : null,
      });
    }
    const after = AFTER_EVENT[turn.event];
    if (after !== undefined)
      messages.push({
        id: id(),
        role: "user",
        content: after,
        source: null,
        metadata: null,
        tool_call_id: null,
      });
  }
  return messages;
}
