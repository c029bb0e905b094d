/**
 * The comparison in one pure step: refuse incomparable summaries, pair their episodes, bootstrap
 * A, B and B − A per condition × catalog size (and pooled), and set the routers' ranks side by side.
 */
import type { Protocol } from "../authoring/index.ts";
import { inputError, type RngName } from "../core/index.ts";
import type { Summary } from "../summary/index.ts";
import { checkComparable, differingSettings, type NamedSummary } from "./comparable.ts";
import { pairEpisodes } from "./pairing.ts";
import { assignManifests, rankRows, type NamedManifest } from "./ranks.ts";
import { COMPARE_FORMAT, type Comparison, type Side } from "./schema.ts";
import { planStatistics, runBootstrap, tables } from "./statistics.ts";

export interface CompareInput {
  readonly a: NamedSummary;
  readonly b: NamedSummary;
  /** The protocol both were scored under (the caller checked its hash against the summaries). */
  readonly protocol: Protocol;
  readonly manifests: readonly NamedManifest[];
}

/** How many left-out episode keys the comparison lists. */
const LISTED_LEFT_OUT = 10;

export const WHAT =
  "B − A: a paired comparison of two runs on the same tasks, not a gate — no threshold is applied and no verdict is given";

export function compareSummaries(input: CompareInput): Comparison {
  const { a, b, protocol } = input;
  checkComparable(a, b);
  const assigned = assignManifests(input.manifests, a.summary, b.summary);
  const pairing = pairEpisodes(a.summary.episode_scores, b.summary.episode_scores);
  if (pairing.a.length === 0)
    throw inputError(
      "compare",
      "compare_no_common_episodes",
      `no episode (task, catalog size, condition, trial) is in both ${a.path} and ${b.path}: nothing to pair`,
      { file: b.path },
    );
  const rng = sharedRng(a.summary, b.summary);
  const plan = planStatistics(protocol, pairing);
  const result = runBootstrap(protocol, pairing, plan, rng);
  const s = protocol.statistics;
  return {
    format: COMPARE_FORMAT,
    what: WHAT,
    protocol_id: a.summary.protocol_id,
    protocol_sha256: a.summary.protocol_sha256,
    preregistered: a.summary.preregistered,
    conditions_not_preregistered: [
      ...new Set([
        ...(a.summary.gate.conditions_not_preregistered ?? []),
        ...(b.summary.gate.conditions_not_preregistered ?? []),
      ]),
    ],
    a: side(a),
    b: side(b),
    differs: differingSettings(a.summary, b.summary),
    pairing: {
      paired: pairing.a.length,
      tasks: plan.taskIds.length,
      only_in_a: pairing.onlyInA.length,
      only_in_b: pairing.onlyInB.length,
      left_out: [...pairing.onlyInA, ...pairing.onlyInB].slice(0, LISTED_LEFT_OUT),
    },
    bootstrap: {
      method: s.method,
      iterations: s.iterations,
      seed: s.seed,
      rng,
      confidence: s.confidence_level,
      interval: s.interval,
      gate_interval: s.gate_interval,
      cells: result.cells,
    },
    tables: tables(protocol, plan, result),
    ranks: {
      a_manifest: assigned.a?.path ?? null,
      b_manifest: assigned.b?.path ?? null,
      rows: rankRows(assigned, plan.taskIds, plan.sizes),
    },
  };
}

/** The generator both summaries were bootstrapped with; when they differ, the default one. */
function sharedRng(A: Summary, B: Summary): RngName {
  return A.bootstrap.rng === B.bootstrap.rng ? A.bootstrap.rng : "seedrandom";
}

function side({ path, summary }: NamedSummary): Side {
  const r = summary.run;
  return {
    summary: path,
    agent: r.agent,
    model: r.model,
    router_id: r.router_id,
    router_config_sha256: r.router_config_sha256,
    condition_manifest_sha256: r.condition_manifest_sha256,
    system_prompt_sha256: r.system_prompt_sha256,
    trials: r.trials,
    episodes: summary.episodes,
    complete: summary.complete,
  };
}
