/**
 * The sensitivity matrix: the reference agent and every probe agent, each task × catalog size ×
 * condition (the protocol's all-routes and required-routes conditions), in-process through the
 * real agent loop and replay executor, each episode scored by the scorer. Sequential and in a fixed
 * order (agents, then the manifest's tasks, sizes, conditions), so the same inputs give the same
 * rows. No tokenizer is loaded: nothing here is priced.
 */
import type { Protocol, Task } from "../authoring/index.ts";
import {
  carefulReaderAgent,
  PROBE_NAMES,
  probeAgent,
  referenceAgent,
  type Agent,
} from "../conditions/agents/index.ts";
import type { Catalog } from "../conditions/catalog/index.ts";
import { runEpisode, TurnTokenCounter } from "../conditions/execution/index.ts";
import type { ConditionManifest } from "../conditions/routing/index.ts";
import { inputError, taskSizeKey, type UnitConverter } from "../core/index.ts";
import { scoreRecord, type EpisodeRow } from "../metrics/index.ts";

export interface SensitivityInput {
  readonly protocol: Protocol;
  readonly tasks: readonly Task[];
  readonly manifest: Pick<ConditionManifest, "entries">;
  readonly catalogs: ReadonlyMap<number, Catalog>;
  readonly units: UnitConverter;
  readonly systemPrompt: string;
}

/** The agents of the matrix by name: `reference`, then `probe:NAME` in PROBE_NAMES order, then `careful-reader`. */
export interface AgentRows {
  readonly agent: string;
  readonly rows: readonly EpisodeRow[];
}

export interface SensitivityRuns {
  readonly conditions: readonly string[];
  readonly catalogSizes: readonly number[];
  readonly tasks: number;
  readonly agents: readonly AgentRows[];
}

const NO_TOKENS = new TurnTokenCounter({ name: "none", count: () => 0 });

/** The protocol's conditions that show every route and only the required ones (FULL and ORACLE), in protocol order. */
export function sensitivityConditions(protocol: Protocol): string[] {
  return protocol.conditions
    .filter((c) => c.visibility.kind === "all_routes" || c.visibility.kind === "required_routes")
    .map((c) => c.id);
}

export async function runSensitivity(input: SensitivityInput): Promise<SensitivityRuns> {
  const loop = input.protocol.agent_loop;
  const conditions = sensitivityConditions(input.protocol);
  const catalogSizes = input.protocol.catalog_sizes;
  const entries = new Map(input.manifest.entries.map((e) => [taskSizeKey(e), e]));
  const settings = {
    maxTurns: loop.max_turns,
    maxToolCallsPerTurn: loop.max_tool_calls_per_turn,
    systemPrompt: input.systemPrompt,
    requestMoreTools: loop.request_more_tools_token,
  };
  const agents: Agent[] = [
    referenceAgent(loop.request_more_tools_token, input.units),
    ...PROBE_NAMES.map((name) => probeAgent(name, loop.request_more_tools_token, input.units)),
    carefulReaderAgent(loop.request_more_tools_token, input.units),
  ];
  const out: AgentRows[] = [];
  for (const agent of agents) {
    const rows: EpisodeRow[] = [];
    for (const task of input.tasks)
      for (const catalog_size of catalogSizes) {
        const entry = entries.get(taskSizeKey({ semantic_task_id: task.semantic_task_id, catalog_size }));
        const catalog = input.catalogs.get(catalog_size);
        if (entry === undefined || catalog === undefined)
          throw inputError(
            "sensitivity",
            "condition_manifest_incomplete",
            `the condition manifest has no entry for ${task.semantic_task_id} at ${catalog_size}${catalog === undefined ? " (nor a catalog of that size)" : ""}`,
          );
        for (const condition of conditions) {
          const stages = entry.conditions[condition]?.stages;
          if (stages === undefined)
            throw inputError(
              "sensitivity",
              "condition_manifest_incomplete",
              `the condition manifest has no ${condition} stages for ${task.semantic_task_id} at ${catalog_size}`,
            );
          const outcome = await runEpisode(
            { task, endpoints: catalog.endpoints, catalogSize: catalog_size, stages },
            agent.startEpisode(task),
            settings,
            NO_TOKENS,
          );
          const record = {
            ...outcome,
            semantic_task_id: task.semantic_task_id,
            catalog_size,
            condition,
            trial: 1,
          };
          rows.push(scoreRecord(record, task, input.units));
        }
      }
    out.push({ agent: agent.identity.agent, rows });
  }
  return { conditions, catalogSizes, tasks: input.tasks.length, agents: out };
}
