/**
 * The verdict table of one episode: for every required fact, which dimensions some emitted fact
 * hit; for every emitted fact, its verdict and the reason. Every episode metric reads this table.
 */
import {
  acceptedSources,
  type AnswerField,
  isNumericValue,
  type RequiredFact,
  type Task,
} from "../../authoring/index.ts";
import type { UnitConverter } from "../../core/index.ts";
import type { EnvelopeFact, EnvelopeResult } from "../../envelope/index.ts";
import { sourceOk, unitOk, valueOk } from "../match.ts";

export interface RequiredVerdict {
  readonly fact: RequiredFact;
  readonly numeric: boolean;
  readonly unitBearing: boolean;
  /** Some emitted fact with this key is licensed (value, unit and source all right). */
  readonly recalled: boolean;
  readonly valueHit: boolean;
  readonly unitHit: boolean;
  readonly sourceHit: boolean;
  /** The sources cited by the emitted facts licensed for it (any of its accepted sources), without repeats. */
  readonly licensedSources: readonly string[];
}

export interface FactVerdict {
  readonly index: number;
  readonly key: string;
  readonly licensed: boolean;
  /** null when no required fact has this key. */
  readonly value_ok: boolean | null;
  readonly unit_ok: boolean | null;
  readonly source_ok: boolean | null;
  readonly duplicate: boolean;
  readonly contradicts: boolean;
  readonly reason: string;
}

export interface EpisodeTable {
  readonly valid: boolean;
  readonly required: readonly RequiredVerdict[];
  readonly emitted: readonly FactVerdict[];
  readonly sources: readonly string[];
  readonly allowed: ReadonlySet<string>;
  readonly mandatory: readonly string[];
}

/**
 * What comparing an emitted fact reads besides the fact: the task, its answer form's fields by
 * key, the allowed sources and the unit table.
 */
interface Comparison {
  readonly task: Task;
  readonly fields: ReadonlyMap<string, AnswerField>;
  readonly allowed: ReadonlySet<string>;
  readonly units: UnitConverter;
}

/** How one emitted fact compares with one required fact of its key. */
interface RequiredCheck {
  readonly e: RequiredFact;
  readonly value: boolean;
  readonly unit: boolean;
  readonly source: boolean;
}

/** What the episode so far has shown of each required fact, filled in as the emitted facts are read. */
interface Progress {
  /** Required fact → index of the first fact licensed for it. */
  readonly claimed: Map<RequiredFact, number>;
  /** Required fact → which dimensions some emitted fact hit. */
  readonly hits: Map<RequiredFact, { value: boolean; unit: boolean; source: boolean }>;
  /** Required fact → the sources its licensed facts cited. */
  readonly cited: Map<RequiredFact, Set<string>>;
}

export function buildTable(task: Task, result: EnvelopeResult, units: UnitConverter): EpisodeTable {
  const allowed = new Set(task.allowed_source_ids);
  // The form says how each key is compared (kind, difference, list order); forbidden facts of a
  // key are compared by the same field as its required ones.
  const fields = new Map(task.answer_fields.map((field) => [field.key, field]));
  const comparison: Comparison = { task, fields, allowed, units };
  const facts = result.ok ? result.envelope.facts : [];
  const progress: Progress = {
    claimed: new Map(),
    hits: new Map(task.required_facts.map((e) => [e, { value: false, unit: false, source: false }])),
    cited: new Map(task.required_facts.map((e) => [e, new Set<string>()])),
  };
  // In the envelope's order: a fact's duplicate verdict depends on the facts before it.
  const emitted = facts.map((f, index) => emittedVerdict(comparison, progress, f, index));
  const required = task.required_facts.map((e) => requiredVerdict(progress, e));
  return {
    valid: result.ok,
    required,
    emitted,
    sources: result.ok ? result.envelope.sources : [],
    allowed,
    mandatory: task.mandatory_answer_fields,
  };
}

/** The emitted fact against every required fact of its key. */
function checkRequired({ task, fields, allowed, units }: Comparison, f: EnvelopeFact): RequiredCheck[] {
  const candidates = task.required_facts.filter((e) => e.key === f.key);
  return candidates.map((e) => ({
    e,
    value: valueOk(f, e, task.numeric_tolerances[e.key], units, fields.get(e.key)),
    unit: unitOk(f, e, task.accepted_units[e.key], fields.get(e.key)),
    source: sourceOk(f.source_id, e, allowed),
  }));
}

/** Whether the emitted fact's value matches a forbidden fact of its key. */
function contradictsForbidden({ task, fields, units }: Comparison, f: EnvelopeFact): boolean {
  return task.forbidden_facts.some(
    (g) =>
      g.key === f.key &&
      valueOk(
        f,
        { key: g.key, value: g.value, unit: g.unit ?? null },
        task.numeric_tolerances[g.key],
        units,
        fields.get(g.key),
      ),
  );
}

/** One emitted fact's verdict; records its hits and the required facts it is the first licensed for. */
function emittedVerdict(
  comparison: Comparison,
  progress: Progress,
  f: EnvelopeFact,
  index: number,
): FactVerdict {
  const { claimed, hits } = progress;
  const checks = checkRequired(comparison, f);
  for (const c of checks) {
    const hit = hits.get(c.e);
    if (hit)
      Object.assign(hit, {
        value: hit.value || c.value,
        unit: hit.unit || c.unit,
        source: hit.source || c.source,
      });
  }
  const contradicts = contradictsForbidden(comparison, f);
  const licensedFor = checks.filter((c) => c.value && c.unit && c.source);
  // A licensed fact is a duplicate when every required fact it is licensed for was recalled before it.
  const fresh = licensedFor.find((c) => !claimed.has(c.e));
  for (const c of licensedFor) {
    if (!claimed.has(c.e)) claimed.set(c.e, index);
    progress.cited.get(c.e)?.add(f.source_id);
  }
  const best = fresh ?? licensedFor[0] ?? checks[0];
  if (!best) return verdict(index, f.key, contradicts);
  const licensed = licensedFor.length > 0;
  const duplicate = licensed && fresh === undefined;
  const first = duplicate ? claimed.get(best.e) : undefined;
  return {
    index,
    key: f.key,
    licensed,
    value_ok: best.value,
    unit_ok: best.unit,
    source_ok: best.source,
    duplicate,
    contradicts,
    reason: reasonFor(best, comparison.allowed, first, contradicts),
  };
}

/** One required fact's verdict, once every emitted fact has been read. */
function requiredVerdict({ claimed, hits, cited }: Progress, e: RequiredFact): RequiredVerdict {
  const hit = hits.get(e) ?? { value: false, unit: false, source: false };
  return {
    fact: e,
    numeric: isNumericValue(e.value),
    unitBearing: e.unit !== null,
    recalled: claimed.has(e),
    valueHit: hit.value,
    unitHit: hit.unit,
    sourceHit: hit.source,
    licensedSources: [...(cited.get(e) ?? [])],
  };
}

/** The verdict of a fact whose key no required fact has. */
function verdict(index: number, key: string, contradicts: boolean): FactVerdict {
  const reason = `not a required fact key${contradicts ? "; matches a forbidden fact" : ""}`;
  return {
    index,
    key,
    licensed: false,
    value_ok: null,
    unit_ok: null,
    source_ok: null,
    duplicate: false,
    contradicts,
    reason,
  };
}

function reasonFor(
  c: RequiredCheck,
  allowed: ReadonlySet<string>,
  duplicateOf: number | undefined,
  contradicts: boolean,
): string {
  const parts: string[] = [];
  if (!c.value) parts.push("value does not match");
  if (!c.unit) parts.push(c.e.unit === null ? "a unit was given where none belongs" : "unit not accepted");
  if (!c.source) {
    const accepted = acceptedSources(c.e).filter((s) => allowed.has(s));
    parts.push(
      accepted.length <= 1
        ? `source is not ${accepted[0] ?? c.e.source_id} among the allowed sources`
        : `source is not one of ${accepted.join(", ")}`,
    );
  }
  if (duplicateOf !== undefined) parts.push(`duplicate of fact ${duplicateOf}`);
  if (contradicts) parts.push("matches a forbidden fact");
  return parts.length === 0 ? "licensed" : parts.join("; ");
}
