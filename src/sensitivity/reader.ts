/**
 * The careful reader beside the reference agent (pure): its required-fact recall per condition,
 * by stratum and by language, the reference agent's over the same episodes, and whether the
 * corpus is sound by the reader's rule — in every stratum and condition the reader stays at least
 * `READER_MARGIN` below the reference. A breach is a finding listed in the table, never an error.
 */
import type { EpisodeRow } from "../metrics/index.ts";
import { READER_MARGIN } from "./checks.ts";
import { aggregateMetric } from "./aggregate.ts";

const RECALL = { metric: "required_fact_recall", aggregation: "mean" } as const;

export interface ReaderCell {
  readonly condition: string;
  /** A stratum or a language, by `group`. */
  readonly group: "stratum" | "language" | "all";
  readonly name: string;
  readonly episodes: number;
  readonly reference: number | null;
  readonly reader: number | null;
  /** reader − reference; null when either is undefined. */
  readonly difference: number | null;
}

export interface ReaderFinding {
  readonly condition: string;
  readonly stratum: string;
  readonly reference: number | null;
  readonly reader: number | null;
  readonly message: string;
}

export interface ReaderSection {
  readonly agent: string;
  readonly metric: "required_fact_recall";
  readonly margin: number;
  readonly rule: string;
  readonly cells: readonly ReaderCell[];
  /** Strata × conditions where the reader is not clearly below the reference. */
  readonly findings: readonly ReaderFinding[];
  readonly sound: boolean;
}

function cell(
  condition: string,
  group: ReaderCell["group"],
  name: string,
  reference: readonly EpisodeRow[],
  reader: readonly EpisodeRow[],
): ReaderCell {
  const r = aggregateMetric(reference, RECALL);
  const p = aggregateMetric(reader, RECALL);
  return {
    condition,
    group,
    name,
    episodes: reader.length,
    reference: r,
    reader: p,
    difference: r === null || p === null ? null : p - r,
  };
}

const sorted = (values: Iterable<string>): string[] => [...new Set(values)].sort();

export function readerSection(
  agent: string,
  conditions: readonly string[],
  reference: readonly EpisodeRow[],
  reader: readonly EpisodeRow[],
): ReaderSection {
  const cells: ReaderCell[] = [];
  for (const condition of conditions) {
    const inCondition = (r: EpisodeRow) => r.condition === condition;
    const ref = reference.filter(inCondition);
    const own = reader.filter(inCondition);
    cells.push(cell(condition, "all", "all", ref, own));
    for (const group of ["stratum", "language"] as const) {
      const of = (r: EpisodeRow) => (group === "stratum" ? r.answer_task_stratum : r.language);
      for (const name of sorted(own.map(of)))
        cells.push(
          cell(
            condition,
            group,
            name,
            ref.filter((r) => of(r) === name),
            own.filter((r) => of(r) === name),
          ),
        );
    }
  }
  const findings = cells
    .filter((c) => c.group === "stratum")
    // A hair of slack, as for the probes: 0.75 − 1 is −0.25 in binary only up to rounding.
    .filter((c) => c.difference === null || c.difference > -READER_MARGIN + 1e-12)
    .map((c) => ({
      condition: c.condition,
      stratum: c.name,
      reference: c.reference,
      reader: c.reader,
      message: `the careful reader reaches ${c.reader?.toFixed(3) ?? "n/a"} against the reference agent's ${c.reference?.toFixed(3) ?? "n/a"} under ${c.condition} in ${c.name}: less than ${READER_MARGIN} apart, so reading without understanding answers this stratum`,
    }));
  return {
    agent,
    metric: "required_fact_recall",
    margin: READER_MARGIN,
    rule: `in every stratum and condition, at least ${READER_MARGIN} below the reference`,
    cells,
    findings,
    sound: findings.length === 0,
  };
}
