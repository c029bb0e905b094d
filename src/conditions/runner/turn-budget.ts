/**
 * The turn budget's coherence with a corpus and its condition manifest: the protocol's
 * `agent_loop.max_turns` must let the reference agent — a careful reader that wastes no call —
 * finish every task under every condition and catalog size with `min_spare_turns` turns left, and
 * the system prompt must state the same limit. A budget a perfect agent cannot meet would make a
 * condition fail by construction, measuring the budget instead of the router.
 *
 * `referenceTurnUsage` runs the reference agent through the real loop (no tokenizer: nothing is
 * counted); `turnBudgetProblems` and `promptTurnLimitProblems` are pure.
 */
import type { Protocol, Task } from "../../authoring/index.ts";
import type { Problem, UnitConverter } from "../../core/index.ts";
import { referenceAgent } from "../agents/reference.ts";
import type { Catalog } from "../catalog/schema.ts";
import { runEpisode } from "../execution/loop.ts";
import { TurnTokenCounter } from "../execution/tokens.ts";
import type { ConditionManifest } from "../routing/manifest-schema.ts";
import { searchSettings, withSearch } from "./search-settings.ts";

/** What one reference episode used. */
export interface TurnUsage {
  readonly semantic_task_id: string;
  readonly catalog_size: number;
  readonly condition: string;
  readonly turns: number;
  readonly end_reason: "final_answer" | "turn_limit" | "infrastructure_error";
}

export interface TurnUsageInput {
  readonly protocol: Protocol;
  readonly tasks: readonly Task[];
  readonly manifest: Pick<ConditionManifest, "entries">;
  readonly catalogs: ReadonlyMap<number, Catalog>;
  readonly units: UnitConverter;
}

const NO_TOKENS = new TurnTokenCounter({ name: "none", count: () => 0 });

/** The reference agent's turns on every task × catalog size × condition the manifest freezes. */
export async function referenceTurnUsage(input: TurnUsageInput): Promise<TurnUsage[]> {
  const loop = input.protocol.agent_loop;
  const agent = referenceAgent(loop.request_more_tools_token, input.units);
  const settings = {
    maxTurns: loop.max_turns,
    maxToolCallsPerTurn: loop.max_tool_calls_per_turn,
    systemPrompt: "",
    requestMoreTools: loop.request_more_tools_token,
  };
  const searches = searchSettings(input.protocol);
  const byId = new Map(input.tasks.map((t) => [t.semantic_task_id, t]));
  const usage: TurnUsage[] = [];
  for (const entry of input.manifest.entries) {
    const task = byId.get(entry.semantic_task_id);
    const catalog = input.catalogs.get(entry.catalog_size);
    if (task === undefined || catalog === undefined) continue;
    for (const [condition, { stages }] of Object.entries(entry.conditions)) {
      const search = searches.get(condition);
      // A native search is run by the provider: no model, no measure here (its budget is the portable one's).
      if (search?.executor === "provider") continue;
      const outcome = await runEpisode(
        { task, endpoints: catalog.endpoints, catalogSize: entry.catalog_size, stages },
        agent.startEpisode(task),
        withSearch(settings, search),
        NO_TOKENS,
      );
      usage.push({
        semantic_task_id: task.semantic_task_id,
        catalog_size: entry.catalog_size,
        condition,
        turns: outcome.turns.length,
        end_reason: outcome.end_reason,
      });
    }
  }
  return usage;
}

/**
 * One problem per episode that did not end in an answer with `min_spare_turns` left. The reference
 * agent answers on its last turn whatever it has, so a budget it needs all of shows as 0 spare.
 */
export function turnBudgetProblems(protocol: Protocol, usage: readonly TurnUsage[]): Problem[] {
  const { max_turns: max, min_spare_turns: spare } = protocol.agent_loop;
  return usage.flatMap((u) => {
    const left = max - u.turns;
    if (u.end_reason === "final_answer" && left >= spare) return [];
    return [
      {
        code: "turn_budget_too_small",
        message: `${u.semantic_task_id} under ${u.condition} at ${u.catalog_size} endpoints: the reference agent used ${u.turns} of ${max} turns (${u.end_reason}), ${left} left; agent_loop.min_spare_turns asks for ${spare} (raise max_turns by its max_turns_rule, or shorten the task)`,
      },
    ];
  });
}

/** The limit a prompt states: "at most N turns". */
const STATED_LIMIT = /\bat most (\d+) turns\b/gi;

/** The system prompt must state the protocol's turn limit, once, as "at most N turns". */
export function promptTurnLimitProblems(prompt: string, protocol: Protocol): Problem[] {
  const stated = [...prompt.matchAll(STATED_LIMIT)].map((m) => Number(m[1]));
  const max = protocol.agent_loop.max_turns;
  if (stated.length === 1 && stated[0] === max) return [];
  const said =
    stated.length === 0 ? 'states no turn limit ("at most N turns")' : `states ${stated.join(" and ")}`;
  return [
    {
      code: "prompt_turn_limit_mismatch",
      message: `the system prompt ${said}, but agent_loop.max_turns is ${max}; the agent must be told the limit it runs under`,
    },
  ];
}
