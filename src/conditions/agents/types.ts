/**
 * The agent interface. The loop gives an agent the conversation and the tools of this turn; the
 * agent answers with text and zero or more tool calls. Every agent — the deterministic reference,
 * a model behind an API, a subprocess — fits behind this, so the loop never changes for one.
 */
import type { Task } from "../../authoring/index.ts";
import type { Message, ProviderUsage, ToolCall, ToolDefinition } from "../../providers/index.ts";
import type { SearchSettings } from "../search/types.ts";

export type { ProviderUsage };

export interface AgentTurnRequest {
  readonly messages: readonly Message[];
  readonly tools: readonly ToolDefinition[];
  /** 1-based turn number, and the protocol's limit. */
  readonly turn: number;
  readonly maxTurns: number;
  /** The loop's count of this request's input tokens (tool definitions + messages), for budgets and rate limits. */
  readonly inputTokens?: number;
  /** Aborted when the run is interrupted: an agent stops what it runs and rejects with code `interrupted`. */
  readonly signal?: AbortSignal;
  /**
   * A native search condition (#34): `tools` is then the whole catalog, every one to be sent
   * deferred (`defer_loading: true`) beside the provider's own search tool; only a provider agent
   * can serve it. `clientSearch` answers a client-executed provider search (OpenAI's
   * `execution: "client"`) with fabench's own engine. Absent under every other condition.
   */
  readonly toolSearch?: {
    readonly settings: SearchSettings;
    readonly clientSearch: (query: string) => readonly string[];
  };
}

export interface AgentTurnResponse {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  /** What the provider reported, when there is a provider. */
  readonly usage?: ProviderUsage;
  readonly model?: string;
  /**
   * Under a native search condition: every search the provider ran (or asked the client to run)
   * in this turn, in order: the query as sent and the function names it loaded.
   */
  readonly searches?: ReadonlyArray<{ readonly query: string; readonly loaded: readonly string[] }>;
  /**
   * The provider's own assistant content (Anthropic content blocks, OpenAI Responses output items)
   * when it holds what the neutral message cannot, such as server tool search blocks: the loop
   * keeps it on the assistant message (`Message.raw`) and the provider sends it back as it came.
   */
  readonly raw?: unknown;
}

export interface AgentEpisode {
  turn(request: AgentTurnRequest): Promise<AgentTurnResponse>;
  /** Called once when the episode ends, however it ends (batch mode counts the episodes still running). */
  finish?(): void;
}

/** What a run records about its agent; runs with different identities are never mixed. */
export interface AgentIdentity {
  readonly agent: string;
  readonly model: string | null;
  readonly settings: Record<string, unknown>;
}

export interface Agent {
  readonly identity: AgentIdentity;
  /**
   * Model agents ignore the task; the reference agent follows its fixture. `key` names the
   * episode (task|size|condition|trial), which batch mode uses to identify its requests.
   */
  startEpisode(task: Task, key?: string): AgentEpisode;
  /**
   * Agents behind a provider: one free request before the first episode, which throws a coded
   * error (exit 2) when the endpoint cannot be reached or refuses the key. Absent for agents
   * without a provider (the reference agent, command agents).
   */
  preflight?(): Promise<void>;
}
