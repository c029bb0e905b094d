/**
 * The sensitivity table (pure): per probe, the metric that must catch it, the reference agent's
 * value and the probe's over the same episodes, the difference (probe − reference), whether it is
 * caught (see checks.ts), the same per condition × catalog size, and a companion metric beside.
 */
import type { EpisodeRow } from "../metrics/index.ts";
import { CAREFUL_READER, PROBE_NAMES, type ProbeName } from "../conditions/agents/index.ts";
import { aggregateMetric } from "./aggregate.ts";
import { CATCH_MARGIN, PROBE_CHECKS, type Aggregation, type MetricRef } from "./checks.ts";
import { readerSection, type ReaderSection } from "./reader.ts";

export { aggregateMetric };
import type { SensitivityRuns } from "./run.ts";

export const SENSITIVITY_FORMAT = "fabench-sensitivity/v2";

export interface Compared {
  readonly reference: number | null;
  readonly probe: number | null;
  /** probe − reference; null when either is undefined. */
  readonly difference: number | null;
}

export interface CellComparison extends Compared {
  readonly condition: string;
  readonly catalog_size: number;
}

export interface SensitivityRow extends Compared {
  readonly probe_agent: string;
  readonly metric: string;
  readonly aggregation: Aggregation;
  /** What counts as caught, in words. */
  readonly rule: string;
  readonly caught: boolean;
  readonly why: string;
  readonly cells: readonly CellComparison[];
  readonly companion: ({ readonly metric: string; readonly aggregation: Aggregation } & Compared) | null;
}

export interface SensitivityTable {
  readonly format: typeof SENSITIVITY_FORMAT;
  readonly conditions: readonly string[];
  readonly catalog_sizes: readonly number[];
  readonly tasks: number;
  /** Episodes per agent: tasks × catalog sizes × conditions. */
  readonly episodes_per_agent: number;
  readonly catch_margin: number;
  readonly rows: readonly SensitivityRow[];
  /** The careful reader's recall beside the reference agent's, by stratum and language. */
  readonly reader: ReaderSection;
}

function compare(reference: readonly EpisodeRow[], probe: readonly EpisodeRow[], ref: MetricRef): Compared {
  const r = aggregateMetric(reference, ref);
  const p = aggregateMetric(probe, ref);
  return { reference: r, probe: p, difference: r === null || p === null ? null : p - r };
}

export function sensitivityTable(runs: SensitivityRuns): SensitivityTable {
  const rowsOf = (agent: string) => {
    const found = runs.agents.find((a) => a.agent === agent);
    if (found === undefined) throw new Error(`no episodes of ${agent} (runSensitivity runs every agent)`);
    return found.rows;
  };
  const reference = rowsOf("reference");
  const rows = PROBE_NAMES.map((name: ProbeName): SensitivityRow => {
    const check = PROBE_CHECKS[name];
    const probe = rowsOf(`probe:${name}`);
    const pooled = compare(reference, probe, check);
    const cells = runs.conditions.flatMap((condition) =>
      runs.catalogSizes.map((catalog_size) => {
        const inCell = (r: EpisodeRow) => r.condition === condition && r.catalog_size === catalog_size;
        return { condition, catalog_size, ...compare(reference.filter(inCell), probe.filter(inCell), check) };
      }),
    );
    const caught =
      check.rule === "positive"
        ? (pooled.probe ?? 0) > 0
        : // A hair of slack: 0.85 − 1 is −0.15000000000000002 in binary, and it is 0.15 below.
          pooled.difference !== null && pooled.difference <= -CATCH_MARGIN + 1e-12;
    return {
      probe_agent: `probe:${name}`,
      metric: check.metric,
      aggregation: check.aggregation,
      rule:
        check.rule === "positive" ? "the probe's total > 0" : `at least ${CATCH_MARGIN} below the reference`,
      ...pooled,
      caught,
      why: check.why,
      cells,
      companion:
        check.companion === null
          ? null
          : {
              metric: check.companion.metric,
              aggregation: check.companion.aggregation,
              ...compare(reference, probe, check.companion),
            },
    };
  });
  return {
    format: SENSITIVITY_FORMAT,
    conditions: runs.conditions,
    catalog_sizes: runs.catalogSizes,
    tasks: runs.tasks,
    episodes_per_agent: runs.tasks * runs.conditions.length * runs.catalogSizes.length,
    catch_margin: CATCH_MARGIN,
    rows,
    reader: readerSection(CAREFUL_READER, runs.conditions, reference, rowsOf(CAREFUL_READER)),
  };
}
