/**
 * The deterministic `reference` agent — no model. Each turn it calls the next fixture step when
 * that step's tool is visible (with arguments that satisfy the step's rules, using what earlier
 * steps returned), and otherwise asks for more tools. When the steps are done, or on its last
 * turn, it answers with the envelope of the required facts it actually observed: values, units and
 * sources read from the observations it received, never from the task's answer key.
 *
 * When it asks for more tools it appends the envelope of what it has so far, so a condition that
 * never widens still scores exactly the facts the agent could reach. It is the ceiling a perfect
 * reader reaches under each condition's visibility and turn budget.
 */
import type { FixtureStep, Task } from "../../authoring/index.ts";
import type { ToolDefinition } from "../execution/render.ts";
import type { Agent, AgentEpisode, AgentTurnRequest, AgentTurnResponse } from "./types.ts";

export const REFERENCE_AGENT_VERSION = 1;

interface Observed {
  readonly sources: Map<string, Record<string, { value: unknown; unit: string | null }>>;
  readonly state: Map<string, unknown>;
}

export function referenceAgent(requestMoreTools: string): Agent {
  return {
    identity: { agent: "reference", model: null, settings: { version: REFERENCE_AGENT_VERSION } },
    startEpisode: (task) => referenceEpisode(task, requestMoreTools),
  };
}

function referenceEpisode(task: Task, requestMoreTools: string): AgentEpisode {
  return { turn: async (request) => referenceTurn(task, requestMoreTools, request) };
}

/**
 * One turn, derived from the conversation alone (so a fake model server can play it too): every
 * fixture observation in the tool results advanced one step; their sources are what was observed.
 */
export function referenceTurn(
  task: Task,
  requestMoreTools: string,
  request: AgentTurnRequest,
): AgentTurnResponse {
  const observed = readResults(request);
  const step = task.executor_fixture.steps[observed.advanced];
  if (step === undefined || request.turn >= request.maxTurns) return answer(envelope(task, observed));
  const name = step.route_id.replace(".", "__");
  const tool = request.tools.find((t) => t.name === name);
  if (!tool) return answer(`${requestMoreTools}\n${envelope(task, observed)}`);
  return {
    text: "",
    toolCalls: [{ id: `call_${request.turn}`, name, arguments: argumentsFor(step, tool, observed.state) }],
  };
}

function answer(text: string): AgentTurnResponse {
  return { text, toolCalls: [] };
}

/** The fixture observations among the tool results (errors and no-op results carry no sources). */
function readResults(request: AgentTurnRequest): Observed & { advanced: number } {
  const observed: Observed & { advanced: number } = { sources: new Map(), state: new Map(), advanced: 0 };
  for (const message of request.messages) {
    if (message.role !== "tool") continue;
    let result: { status?: unknown; sources?: unknown };
    try {
      result = JSON.parse(message.content) as typeof result;
    } catch {
      continue;
    }
    if (result.status === "error" || result.status === "executed" || !Array.isArray(result.sources)) continue;
    observed.advanced += 1;
    for (const source of result.sources as Array<{
      source_id: string;
      payload: { facts: Record<string, { value: unknown; unit: string | null }> };
    }>) {
      observed.sources.set(source.source_id, source.payload.facts);
      for (const [key, fact] of Object.entries(source.payload.facts)) observed.state.set(key, fact.value);
    }
  }
  return observed;
}

function argumentsFor(
  step: FixtureStep,
  tool: ToolDefinition,
  state: ReadonlyMap<string, unknown>,
): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const name of tool.parameters.required) {
    const type = (tool.parameters.properties[name] as { type?: string } | undefined)?.type;
    args[name] = type === "integer" || type === "number" ? 1 : "n/a";
  }
  const summary = [...state.values()].map(String).join(", ");
  for (const [name, rule] of Object.entries(step.argument_rules)) {
    if ("eq" in rule) args[name] = rule.eq;
    else if ("state" in rule) args[name] = state.get(rule.state);
    else if ("contains_state" in rule) args[name] = `See ${String(state.get(rule.contains_state))}`;
    else args[name] = summary === "" ? "Done." : `Done: ${summary}`;
  }
  return args;
}

/** The envelope of the required facts whose evidence was observed, read from the observations. */
function envelope(task: Task, observed: Observed): string {
  const facts = task.required_facts.flatMap((required) => {
    const fact = observed.sources.get(required.source_id)?.[required.key];
    return fact === undefined
      ? []
      : [{ key: required.key, value: fact.value, unit: fact.unit, source_id: required.source_id }];
  });
  const sources = [...new Set(facts.map((f) => f.source_id))];
  const answer =
    facts.length === 0 ? "No evidence was available to answer." : `Answer from ${sources.join(", ")}.`;
  return JSON.stringify({ answer, facts, sources });
}
