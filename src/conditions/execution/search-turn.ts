/**
 * A search condition's side of the loop (#34). The agent starts with no tool schema; under the
 * portable searches (executor `fabench`) it is shown the search tool `tool_search` and every tool a
 * search loaded — a search's hits become callable from the next turn on and stay loaded. Under a
 * native search (executor `provider`) the agent is handed the whole catalog and `toolSearch`: the
 * provider runs its search and reports what it loaded (`response.searches`), callable at once.
 *
 * Either way, a call to a catalog tool that is not loaded is answered exactly as an unknown tool
 * (the executor's `unavailable_tool`, as a hidden route), and nothing widens. A search is a tool
 * call: it counts against the per-turn cap. Tool-schema tokens are the search tool's schema plus
 * the loaded tools' schemas — never a deferred tool's — counted per turn, cached by the loaded set.
 * Under a native search the counted search tool is the provider's own definition as the agent
 * sends it (`nativeSearchToolFor`); without one (a test's agent) the portable tool stands in.
 */
import type { Task } from "../../authoring/index.ts";
import { compareCodePoints } from "../../core/index.ts";
import type { AgentTurnRequest, AgentTurnResponse } from "../agents/types.ts";
import type { Endpoint } from "../catalog/schema.ts";
import {
  catalogSearch,
  SEARCH_TOOL_NAME,
  searchReply,
  searchTool,
  type CatalogSearch,
  type SearchRecord,
  type SearchSettings,
} from "../search/index.ts";
import { renderTools, type ToolDefinition } from "./render.ts";
import type { StageShown, ToolCall, Visible } from "./types.ts";

/** What a search condition adds to a turn's record (nothing else changes). */
export interface SearchTurnFields {
  readonly searches: SearchRecord[];
  /** Routes loaded when the turn was asked. */
  readonly loaded_route_count: number;
  /** Native only, when the provider named functions the catalog does not have (dropped). */
  readonly unknown_search_results?: number;
}

/** The view of one turn: the tools the agent is handed, what the tokens count, the cache key. */
export interface SearchView {
  readonly tools: ToolDefinition[];
  readonly counted: ToolDefinition[];
  readonly key: string;
  readonly visible: Visible;
  readonly requiredVisible: string[];
}

export class SearchSession {
  private readonly engine: CatalogSearch;
  private readonly byName: ReadonlyMap<string, Endpoint>;
  private readonly byRoute: ReadonlyMap<string, Endpoint>;
  private readonly tool: ToolDefinition;
  /** The search tool whose schema is counted: the portable one, or the provider's as sent. */
  private readonly counted: ToolDefinition;
  /** Route ids in the order first loaded; `visibleCount` of them are callable this turn. */
  readonly loaded: string[] = [];
  private visibleCount = 0;
  private records: SearchRecord[] = [];
  private unknown = 0;
  private searchCount = 0;

  constructor(
    private readonly input: {
      readonly task: Task;
      readonly endpoints: readonly Endpoint[];
      readonly catalogSize: number;
    },
    readonly settings: SearchSettings,
    nativeTool?: Record<string, unknown>,
  ) {
    this.engine = catalogSearch(settings.engine, input.endpoints);
    this.byName = new Map(input.endpoints.map((e) => [e.function_name, e]));
    this.byRoute = new Map(input.endpoints.map((e) => [e.route_id, e]));
    this.tool = searchTool(settings.engine, settings.k);
    // Counted, never shown: the provider's own definition is not a function tool's shape, but its
    // JSON is what the request carries (the token counter encodes the tool list as JSON).
    this.counted = (
      settings.executor === "provider" && nativeTool !== undefined ? nativeTool : this.tool
    ) as ToolDefinition;
  }

  get native(): boolean {
    return this.settings.executor === "provider";
  }

  /** Searches run in the episode so far. */
  get searches(): number {
    return this.searchCount;
  }

  /** The routes callable now: loaded before this turn (portable), or also by this turn's provider searches (native). */
  visible(): Visible {
    return new Set(this.native ? this.loaded : this.loaded.slice(0, this.visibleCount));
  }

  view(): SearchView {
    const shown = this.loaded.slice(0, this.visibleCount);
    const loadedTools = renderTools(shown.map((r) => this.byRoute.get(r) as Endpoint));
    const sorted = [...shown].sort(compareCodePoints);
    return {
      tools: this.native ? renderTools(this.input.endpoints) : [this.tool, ...loadedTools],
      counted: [this.counted, ...loadedTools],
      key: `${this.input.catalogSize}:search:${this.settings.engine}:${this.settings.executor}:${sorted.join(",")}`,
      visible: new Set(shown),
      requiredVisible: this.input.task.required_routes.filter((r) => shown.includes(r)),
    };
  }

  /** Native only: what the request carries so a provider agent runs its own search. */
  toolSearch(): Pick<AgentTurnRequest, "toolSearch"> {
    if (!this.native) return {};
    const bm25 = catalogSearch("bm25", this.input.endpoints);
    return {
      toolSearch: {
        settings: this.settings,
        clientSearch: (query) => {
          const outcome = bm25.search(query, this.settings.k);
          return outcome.ok ? outcome.hits.map((h) => h.function_name) : [];
        },
      },
    };
  }

  /** Native only: the provider's searches of this turn, recorded and loaded at once. */
  readProviderSearches(response: AgentTurnResponse): void {
    if (!this.native) return;
    for (const search of response.searches ?? []) {
      const routes = search.loaded.flatMap((name) => {
        const endpoint = this.byName.get(name);
        if (endpoint === undefined) this.unknown += 1;
        return endpoint === undefined ? [] : [endpoint.route_id];
      });
      this.record({ query: search.query, results: routes, error_code: null });
      this.load(routes);
    }
  }

  /** Whether a call is one to the portable search tool (native: the provider's search is not a client tool). */
  handles(call: ToolCall): boolean {
    return !this.native && call.name === SEARCH_TOOL_NAME;
  }

  /** Runs a portable search call: the reply the agent reads, and what it loads from the next turn on. */
  run(call: ToolCall): { readonly content: string; readonly observation: Record<string, unknown> } {
    const argument = this.settings.engine === "bm25" ? "query" : "pattern";
    const given = typeof call.arguments === "object" && call.arguments !== null ? call.arguments : {};
    const value = (given as Record<string, unknown>)[argument];
    // A call without the argument is an empty query: refused with `empty_query`, the episode goes on.
    const query = typeof value === "string" ? value : "";
    const outcome = this.engine.search(query, this.settings.k);
    const results = outcome.ok ? outcome.hits.map((h) => h.route_id) : [];
    this.record({ query, results, error_code: outcome.ok ? null : outcome.code });
    this.load(results);
    const content = searchReply(outcome, this.input.endpoints);
    return { content, observation: JSON.parse(content) as Record<string, unknown> };
  }

  /**
   * Closes a turn: the fields its record gains, then the routes it loaded become visible; a history
   * entry (from `nextTurn`) when the loaded set changed.
   */
  endTurn(nextTurn: number, history: StageShown[]): SearchTurnFields {
    const fields: SearchTurnFields = {
      searches: this.records,
      loaded_route_count: this.visibleCount,
      ...(this.native && this.unknown > 0 ? { unknown_search_results: this.unknown } : {}),
    };
    this.records = [];
    this.unknown = 0;
    if (this.loaded.length !== this.visibleCount) {
      this.visibleCount = this.loaded.length;
      history.push(this.shown(nextTurn));
    }
    return fields;
  }

  /** The history entry of what is loaded now, shown from `turn` on. */
  shown(turn: number): StageShown {
    return {
      turn,
      stage: 0,
      visible_route_count: this.visibleCount,
      required_routes_visible: this.input.task.required_routes.filter((r) =>
        this.loaded.slice(0, this.visibleCount).includes(r),
      ),
    };
  }

  private record(search: Pick<SearchRecord, "query" | "results" | "error_code">): void {
    this.searchCount += 1;
    this.records.push({ engine: this.settings.engine, executor: this.settings.executor, ...search });
  }

  private load(routes: readonly string[]): void {
    for (const route of routes) if (!this.loaded.includes(route)) this.loaded.push(route);
  }
}
