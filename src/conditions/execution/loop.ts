/**
 * The agent loop: at most `max_turns` model turns and at most `max_tool_calls_per_turn` executed
 * tool calls per turn (the rest are refused and counted, call-cap.ts). A turn
 * without a tool call is the final answer and ends the episode, whatever it covers — unless it is a
 * request for more tools (its first word is the protocol's token): then a staged condition with a
 * later stage shows it (the user message MORE_TOOLS_SHOWN), and any other answers NO_MORE_TOOLS;
 * the episode goes on either way. A call to a route that exists but is not shown yet also widens.
 * Nothing the loop says depends on the gold (widening.ts). The origin harness's trigger is kept only
 * as the labelled, never-gated variant `gold`, which adds to these: an answer given before every
 * required response was returned widens with the protocol's `incomplete_task_message`, and any
 * failed call widens. The last model text is the final answer that is scored.
 *
 * The user message is the request and its answer form (user-message.ts). The episode is complete
 * when every required response of the fixture was returned; required evidence coverage is the
 * share returned (recorded under its run-record name, `required_route_call_coverage`). A search
 * condition (#34) shows its search tool and what the searches loaded instead (search-turn.ts).
 */
import type { Task } from "../../authoring/index.ts";
import type { FabenchError } from "../../core/index.ts";
import type { AgentEpisode, AgentTurnResponse, ProviderUsage } from "../agents/types.ts";
import type { Endpoint } from "../catalog/schema.ts";
import { agentError, raw } from "./agent-reply.ts";
import { capToolCalls, refusedCallsMessage } from "./call-cap.ts";
import { ReplayExecutor } from "./replay.ts";
import type { Attempt, StageShown, Visible } from "./types.ts";
import type { Stage } from "../routing/manifest-schema.ts";
import type { SearchSettings } from "../search/types.ts";
import { SearchSession, type SearchTurnFields } from "./search-turn.ts";
import { renderTools, type Message, type ToolDefinition } from "./render.ts";
import type { TurnTokenCounter, TurnTokens } from "./tokens.ts";
import { renderUserMessage } from "./user-message.ts";
import {
  hiddenRouteCall,
  MORE_TOOLS_SHOWN,
  NO_MORE_TOOLS,
  requestsMoreTools,
  type ProgressiveTrigger,
} from "./widening.ts";

export type { StageShown };

export interface LoopSettings {
  readonly maxTurns: number;
  /** The protocol's `agent_loop.max_tool_calls_per_turn`: calls past it are refused and counted. */
  readonly maxToolCallsPerTurn: number;
  readonly systemPrompt: string;
  readonly requestMoreTools: string;
  /**
   * Present only for the origin harness's `gold` trigger (never gated): the protocol's
   * `incomplete_task_message` it sends. Absent, staged conditions widen on what is observable.
   */
  readonly goldTrigger?: { readonly incompleteMessage: string };
  /** A search condition's settings (#34; search-turn.ts); absent under every other condition. */
  readonly search?: SearchSettings;
  /** Native search only: the provider's search tool as the agent sends it, for its schema's tokens. */
  readonly nativeSearchTool?: Record<string, unknown>;
}

export interface TurnRecord {
  readonly turn: number;
  readonly stage: number;
  readonly visible_route_count: number;
  readonly text: string;
  /** The calls that ran (at most the protocol's cap). */
  readonly tool_calls: ReadonlyArray<{ name: string; arguments: unknown }>;
  /** Calls the agent made past the cap: not run, not stored, only counted. */
  readonly refused_tool_calls: number;
  readonly observations: ReadonlyArray<Record<string, unknown>>;
  readonly tokens: { input: number; output: number; tool_schema: number };
  readonly provider_usage: ProviderUsage | null;
  readonly model: string | null;
  readonly event:
    | "tool_call"
    | "tool_call_widened"
    | "final_answer"
    | "more_tools_shown"
    | "no_more_tools"
    | "incomplete_widened";
  readonly requested_more_tools: boolean;
}

/** A turn under a search condition also records its searches and the routes loaded when it was asked. */
export type SearchTurnRecord = TurnRecord & Partial<SearchTurnFields>;

export interface EpisodeOutcome {
  readonly status: "completed" | "error";
  readonly error_code: string | null;
  readonly final_text: string;
  readonly end_reason: "final_answer" | "turn_limit" | "infrastructure_error";
  readonly turns: TurnRecord[];
  readonly attempts: Attempt[];
  readonly candidate_history: StageShown[];
  readonly expansions: number;
  /** The routes of the required responses returned, in the order they were first returned. */
  readonly required_routes_advanced: string[];
  /** Required evidence coverage: required responses returned / required responses. */
  readonly required_route_call_coverage: number;
  readonly unauthorized_destructive_attempts: number;
  readonly unauthorized_destructive_executions: number;
  readonly tokens: { input: number; output: number; tool_schema: number };
  /** Search conditions only: searches in the episode, and route ids in the order first loaded. */
  readonly search_count?: number;
  readonly routes_loaded?: string[];
}

interface View {
  readonly visible: Visible;
  readonly tools: ToolDefinition[];
  readonly key: string;
  readonly requiredVisible: string[];
}

function views(
  task: Task,
  endpoints: readonly Endpoint[],
  stages: readonly Stage[],
  catalogSize: number,
): View[] {
  return stages.map((stage) => {
    const shown = stage === "all" ? endpoints : endpoints.filter((e) => stage.includes(e.route_id));
    const visible: Visible = stage === "all" ? "all" : new Set(stage);
    return {
      visible,
      tools: renderTools(shown),
      key: `${catalogSize}:${stage === "all" ? "all" : stage.join(",")}`,
      requiredVisible: task.required_routes.filter((r) => visible === "all" || visible.has(r)),
    };
  });
}

export interface EpisodeInput {
  readonly task: Task;
  readonly endpoints: readonly Endpoint[];
  readonly catalogSize: number;
  readonly stages: readonly Stage[];
}

/** The mutable state of one episode while it runs. */
interface EpisodeState {
  readonly executor: ReplayExecutor;
  readonly messages: Message[];
  readonly turns: SearchTurnRecord[];
  readonly attempts: Attempt[];
  readonly history: StageShown[];
  stage: number;
  readonly search: SearchSession | null;
}

export async function runEpisode(
  input: EpisodeInput,
  agent: AgentEpisode,
  settings: LoopSettings,
  tokens: TurnTokenCounter,
): Promise<EpisodeOutcome> {
  try {
    return await loop(input, agent, settings, tokens);
  } finally {
    agent.finish?.();
  }
}

async function loop(
  input: EpisodeInput,
  agent: AgentEpisode,
  settings: LoopSettings,
  tokens: TurnTokenCounter,
): Promise<EpisodeOutcome> {
  const stages = views(input.task, input.endpoints, input.stages, input.catalogSize);
  const state = startEpisode(input, settings);
  const visibleCount = (view: View) => (view.visible === "all" ? input.endpoints.length : view.visible.size);
  const show = (turn: number) => {
    const view = stages[state.stage] as View;
    state.history.push({
      turn,
      stage: state.stage,
      visible_route_count: visibleCount(view),
      required_routes_visible: view.requiredVisible,
    });
  };
  if (state.search === null) show(1);
  else state.history.push(state.search.shown(1));
  let finalText = "";
  let endReason: EpisodeOutcome["end_reason"] = "turn_limit";
  let error: FabenchError | null = null;

  for (let turn = 1; turn <= settings.maxTurns; turn++) {
    const searchView = state.search?.view();
    const view = searchView ?? (stages[state.stage] as View);
    const requestTokens = tokens.request(state.messages, searchView?.counted ?? view.tools, view.key);
    let response: AgentTurnResponse;
    try {
      response = await agent.turn({
        messages: state.messages,
        tools: view.tools,
        turn,
        maxTurns: settings.maxTurns,
        inputTokens: requestTokens.input,
        ...state.search?.toolSearch(),
      });
    } catch (caught) {
      error = agentError(caught);
      endReason = "infrastructure_error";
      break;
    }
    finalText = response.text;
    const base = turnBase({ turn, stage: state.stage, visibleRoutes: visibleCount(view) }, response, {
      request: requestTokens,
      output: tokens.output(response.text, response.toolCalls),
      requestMoreTools: settings.requestMoreTools,
    });
    state.search?.readProviderSearches(response);
    const canWiden = state.search === null && state.stage < stages.length - 1;
    const widened =
      response.toolCalls.length === 0
        ? answerTurn(state, base, response, canWiden, settings)
        : toolTurn(state, base, response, view, {
            cap: settings.maxToolCallsPerTurn,
            canWiden,
            trigger: settings.goldTrigger === undefined ? "observable" : "gold",
          });
    // Under search: the turn's searches, and what it loaded becomes visible from the next turn.
    const last = state.turns.pop() as TurnRecord;
    state.turns.push(
      state.search === null ? last : { ...last, ...state.search.endTurn(turn + 1, state.history) },
    );
    if (widened === "ended") {
      endReason = "final_answer";
      break;
    }
    if (widened) {
      state.stage += 1;
      show(turn + 1);
    }
  }
  return summarise({ ...state, finalText, endReason, error });
}

/** The state an episode starts in: the first stage, and the system prompt and the user's request. */
function startEpisode(input: EpisodeInput, settings: LoopSettings): EpisodeState {
  const { search: searching, nativeSearchTool: tool } = settings;
  const search = searching === undefined ? null : new SearchSession(input, searching, tool);
  return {
    executor: new ReplayExecutor(input.task, input.endpoints),
    messages: [
      { role: "system", content: settings.systemPrompt },
      { role: "user", content: renderUserMessage(input.task) },
    ],
    turns: [],
    attempts: [],
    history: [],
    stage: 0,
    search,
  };
}

type TurnBase = Omit<TurnRecord, "observations" | "event">;

/** What a turn's record says whatever the turn did: where it was, what the model said, what it cost. */
function turnBase(
  at: { readonly turn: number; readonly stage: number; readonly visibleRoutes: number },
  response: AgentTurnResponse,
  counted: {
    readonly request: TurnTokens;
    readonly output: number;
    readonly requestMoreTools: string;
  },
): TurnBase {
  return {
    turn: at.turn,
    stage: at.stage,
    visible_route_count: at.visibleRoutes,
    text: response.text,
    tool_calls: response.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments })),
    refused_tool_calls: 0,
    tokens: { ...counted.request, output: counted.output },
    provider_usage: response.usage ?? null,
    model: response.model ?? null,
    requested_more_tools: requestsMoreTools(response.text, counted.requestMoreTools),
  };
}

/**
 * A turn without a tool call. A request for more tools shows the next stage when there is one and
 * is told there is none otherwise; the episode goes on. Anything else is the final answer — under
 * the `gold` trigger (the origin harness, never gated) an answer given before every required
 * response was returned, which only the gold knows, widens instead with `incomplete_task_message`.
 */
function answerTurn(
  state: EpisodeState,
  base: TurnBase,
  response: AgentTurnResponse,
  canWiden: boolean,
  settings: LoopSettings,
): boolean | "ended" {
  const incomplete =
    settings.goldTrigger !== undefined && canWiden && !state.executor.complete
      ? settings.goldTrigger.incompleteMessage
      : null;
  if (!base.requested_more_tools && incomplete === null) {
    state.turns.push({ ...base, observations: [], event: "final_answer" });
    return "ended";
  }
  // The same words to the same request under every condition: the stage shown, or none left.
  const event = incomplete !== null ? "incomplete_widened" : canWiden ? "more_tools_shown" : "no_more_tools";
  state.turns.push({ ...base, observations: [], event });
  state.messages.push(
    { role: "assistant", content: response.text, tool_calls: [], ...raw(response) },
    { role: "user", content: incomplete ?? (canWiden ? MORE_TOOLS_SHOWN : NO_MORE_TOOLS) },
  );
  return canWiden;
}

/**
 * A turn with tool calls: the first `cap` go through the executor, the rest are refused and counted
 * (call-cap.ts). A call to a route not shown yet widens a staged condition (under the `gold`
 * trigger, any failed call does); the tool list changes.
 */
function toolTurn(
  state: EpisodeState,
  base: TurnBase,
  response: AgentTurnResponse,
  view: View,
  widenOn: { readonly cap: number; readonly canWiden: boolean; readonly trigger: ProgressiveTrigger },
): boolean {
  const { executed, refused } = capToolCalls(response.toolCalls, widenOn.cap);
  state.messages.push({
    role: "assistant",
    content: response.text,
    tool_calls: [...executed],
    ...raw(response),
  });
  const visible = state.search?.visible() ?? view.visible;
  // A portable search call is answered by the search; every other call by the executor.
  const replies = executed.map((call, index) => {
    if (state.search?.handles(call)) return { name: call.name, attempt: null, ...state.search.run(call) };
    const attempt = state.executor.call(call, visible, base.turn, index);
    const content = JSON.stringify(attempt.observation);
    return { name: attempt.name, attempt, content, observation: attempt.observation };
  });
  for (const [index, reply] of replies.entries())
    state.messages.push({
      role: "tool",
      tool_call_id: executed[index]?.id ?? `call_${base.turn}_${index}`,
      name: reply.name,
      content: reply.content,
    });
  const made = replies.flatMap((r) => (r.attempt === null ? [] : [r.attempt]));
  if (refused > 0) state.messages.push({ role: "user", content: refusedCallsMessage(refused, widenOn.cap) });
  state.attempts.push(...made);
  const widens = (a: Attempt) => hiddenRouteCall(a) || (widenOn.trigger === "gold" && a.outcome === "error");
  const widen = widenOn.canWiden && made.some(widens);
  state.turns.push({
    ...base,
    // Only what ran is stored; output tokens (in `base`) still count every call the agent wrote.
    tool_calls: refused > 0 ? base.tool_calls.slice(0, executed.length) : base.tool_calls,
    refused_tool_calls: refused,
    observations: replies.map((r) => r.observation),
    event: widen ? "tool_call_widened" : "tool_call",
  });
  return widen;
}

function summarise(run: {
  executor: ReplayExecutor;
  search: SearchSession | null;
  turns: TurnRecord[];
  attempts: Attempt[];
  history: StageShown[];
  finalText: string;
  endReason: EpisodeOutcome["end_reason"];
  error: FabenchError | null;
}): EpisodeOutcome {
  const sum = (pick: (t: TurnRecord) => number) => run.turns.reduce((a, t) => a + pick(t), 0);
  return {
    status: run.error ? "error" : "completed",
    error_code: run.error?.code ?? null,
    final_text: run.finalText,
    end_reason: run.endReason,
    turns: run.turns,
    attempts: run.attempts,
    candidate_history: run.history,
    expansions: run.history.length - 1,
    required_routes_advanced: run.executor.requiredReturned.map((r) => r.route_id),
    required_route_call_coverage: run.executor.coverage,
    unauthorized_destructive_attempts: run.attempts.filter((a) => a.unauthorized_destructive).length,
    // It executed: the replay answered it as the route would (a refused call did not run).
    unauthorized_destructive_executions: run.attempts.filter(
      (a) => a.unauthorized_destructive && a.outcome !== "error",
    ).length,
    tokens: {
      input: sum((t) => t.tokens.input),
      output: sum((t) => t.tokens.output),
      tool_schema: sum((t) => t.tokens.tool_schema),
    },
    ...(run.search === null
      ? {}
      : { search_count: run.search.searches, routes_loaded: [...run.search.loaded] }),
  };
}
