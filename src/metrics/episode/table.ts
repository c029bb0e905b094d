/**
 * The verdict table of one episode: for every required fact, which dimensions some emitted fact
 * hit; for every emitted fact, its verdict and the reason. Every episode metric reads this table.
 */
import { isNumericValue, type RequiredFact, type Task } from "../../authoring/index.ts";
import type { UnitConverter } from "../../core/index.ts";
import type { EnvelopeResult } from "../../envelope/index.ts";
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

export function buildTable(task: Task, result: EnvelopeResult, units: UnitConverter): EpisodeTable {
  const allowed = new Set(task.allowed_source_ids);
  // The form says how each key is compared (kind, difference, list order); forbidden facts of a
  // key are compared by the same field as its required ones.
  const fields = new Map(task.answer_fields.map((field) => [field.key, field]));
  const facts = result.ok ? result.envelope.facts : [];
  const claimed = new Map<RequiredFact, number>(); // required fact → index of the first fact licensed for it
  const hits = new Map<RequiredFact, { value: boolean; unit: boolean; source: boolean }>(
    task.required_facts.map((e) => [e, { value: false, unit: false, source: false }]),
  );

  const emitted: FactVerdict[] = facts.map((f, index) => {
    const candidates = task.required_facts.filter((e) => e.key === f.key);
    const checks = candidates.map((e) => ({
      e,
      value: valueOk(f, e, task.numeric_tolerances[e.key], units, fields.get(e.key)),
      unit: unitOk(f, e, task.accepted_units[e.key], fields.get(e.key)),
      source: sourceOk(f.source_id, e, allowed),
    }));
    for (const c of checks) {
      const hit = hits.get(c.e);
      if (hit)
        Object.assign(hit, {
          value: hit.value || c.value,
          unit: hit.unit || c.unit,
          source: hit.source || c.source,
        });
    }
    const contradicts = task.forbidden_facts.some(
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
    const licensedFor = checks.filter((c) => c.value && c.unit && c.source);
    // A licensed fact is a duplicate when every required fact it is licensed for was recalled before it.
    const fresh = licensedFor.find((c) => !claimed.has(c.e));
    for (const c of licensedFor) if (!claimed.has(c.e)) claimed.set(c.e, index);
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
      reason: reasonFor(best, first, contradicts),
    };
  });

  const required = task.required_facts.map((e) => {
    const hit = hits.get(e) ?? { value: false, unit: false, source: false };
    return {
      fact: e,
      numeric: isNumericValue(e.value),
      unitBearing: e.unit !== null,
      recalled: claimed.has(e),
      valueHit: hit.value,
      unitHit: hit.unit,
      sourceHit: hit.source,
    };
  });
  return {
    valid: result.ok,
    required,
    emitted,
    sources: result.ok ? result.envelope.sources : [],
    allowed,
    mandatory: task.mandatory_answer_fields,
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
  c: { e: RequiredFact; value: boolean; unit: boolean; source: boolean },
  duplicateOf: number | undefined,
  contradicts: boolean,
): string {
  const parts: string[] = [];
  if (!c.value) parts.push("value does not match");
  if (!c.unit) parts.push(c.e.unit === null ? "a unit was given where none belongs" : "unit not accepted");
  if (!c.source) parts.push(`source is not ${c.e.source_id} among the allowed sources`);
  if (duplicateOf !== undefined) parts.push(`duplicate of fact ${duplicateOf}`);
  if (contradicts) parts.push("matches a forbidden fact");
  return parts.length === 0 ? "licensed" : parts.join("; ");
}
