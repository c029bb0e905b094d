/**
 * A finding, not a failure: an allowed record a required response shows that holds a required
 * fact's value but is not among the sources the fact accepts. An agent that cites it would be
 * marked wrong for a defensible citation, so the author either lists it in `also_in` or, having
 * seen that the match is a coincidence, lists it in `coincidences` with why. The scan keeps false positives low:
 *
 * - numbers: a payload number within the key's tolerance, converted from the `unit` member of its
 *   object or of the nearest object around it (a history's rows share one; skipped when that unit
 *   does not convert), else read raw in the fact's unit — only for a unit-bearing fact or a number with at least 3 significant digits,
 *   since counts like 2 or 12 sit in any record;
 * - text (the field is `text`): a payload string equal to the gold after the text normaliser, or —
 *   when the fact's own evidence quotes its gold from a longer text — containing it as a whole
 *   quote on word boundaries; a short enumeration word inside a sentence never matches;
 * - identifiers: a payload string equal after NFKC and trimming;
 * - lists: a payload array equal to the gold item by item (as the scorer compares lists);
 * - booleans and the labels of `higher`/`lower` are not scanned: true, false and an entity's own
 *   id sit in records that say nothing about the fact.
 */
import { normalizeIdentifier, normalizeText, pointerOf, type UnitConverter } from "../../core/index.ts";
import { acceptedSources } from "../provenance.ts";
import { isDerived, isNumericValue, type AnswerField, type RequiredFact, type Task } from "../task.ts";
import { requiredSourceIds } from "./also-in.ts";
import { list, type RuleProblem, type TaskRule } from "./context.ts";
import { observedPayloads } from "./evidence.ts";
import { withinTolerance } from "./resolve.ts";

/** One leaf of a payload: its pointer, its value and the `unit` member of the object holding it. */
interface Leaf {
  readonly pointer: string;
  readonly value: unknown;
  readonly unit: string | null;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Every number, string and array in a payload, in document order. */
export function payloadLeaves(payload: unknown): Leaf[] {
  const leaves: Leaf[] = [];
  const walk = (node: unknown, path: Array<string | number>, unit: string | null) => {
    if (Array.isArray(node)) {
      leaves.push({ pointer: pointerOf(path), value: node, unit });
      node.forEach((item, i) => walk(item, [...path, i], unit));
    } else if (isObject(node)) {
      // A history's rows share the unit of the object that holds them unless a row states its own.
      const own = typeof node["unit"] === "string" ? (node["unit"] as string) : unit;
      for (const [key, child] of Object.entries(node)) if (key !== "unit") walk(child, [...path, key], own);
    } else if (typeof node === "number" || typeof node === "string")
      leaves.push({ pointer: pointerOf(path), value: node, unit });
  };
  walk(payload, [], null);
  return leaves;
}

/** Significant digits of a number as JSON writes it: 0.00245 → 3, 184320 → 5, 12 → 2. */
function significantDigits(value: number): number {
  const digits = Math.abs(value).toExponential().split("e")[0]?.replace(".", "") ?? "";
  return digits.replace(/0+$/, "").length;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The comparison a fact's value is scanned with, or null when the fact is not scanned. */
function matcher(task: Task, fact: RequiredFact, field: AnswerField | undefined, units: UnitConverter) {
  const gold = fact.value;
  if (isDerived(fact.evidence) && !["difference", "ratio", "sum"].includes(fact.evidence.derived))
    return null;
  if (isNumericValue(gold)) {
    if (fact.unit === null && significantDigits(gold) < 3) return null;
    const tolerance = task.numeric_tolerances[fact.key];
    return (leaf: Leaf) => {
      if (!isNumericValue(leaf.value)) return false;
      const value =
        fact.unit === null || leaf.unit === null
          ? leaf.value
          : units.convert(leaf.value, leaf.unit, fact.unit);
      return value !== null && withinTolerance(value, gold, tolerance);
    };
  }
  if (typeof gold === "string") {
    if (field?.kind === "text") {
      const want = normalizeText(gold);
      const quoted = !isDerived(fact.evidence) && fact.evidence.quote !== undefined;
      const inside = new RegExp(`(^|[^\\p{L}\\p{N}])${escape(want)}($|[^\\p{L}\\p{N}])`, "u");
      return (leaf: Leaf) =>
        typeof leaf.value === "string" &&
        (normalizeText(leaf.value) === want || (quoted && inside.test(normalizeText(leaf.value))));
    }
    const want = normalizeIdentifier(gold);
    return (leaf: Leaf) => typeof leaf.value === "string" && normalizeIdentifier(leaf.value) === want;
  }
  if (Array.isArray(gold) && gold.length > 0) {
    const want = JSON.stringify(gold.map((g) => (typeof g === "string" ? normalizeText(g) : g)));
    return (leaf: Leaf) =>
      Array.isArray(leaf.value) &&
      JSON.stringify(leaf.value.map((g) => (typeof g === "string" ? normalizeText(g) : g))) === want;
  }
  return null;
}

export const unlistedRules: Record<string, TaskRule> = {
  unlistedSources(task, context) {
    const payloads = observedPayloads(task);
    const allowed = task.allowed_source_ids.filter((id) => payloads.has(id));
    const shown = requiredSourceIds(task);
    const fields = new Map(task.answer_fields.map((f) => [f.key, f]));
    const findings: RuleProblem[] = [];
    for (const [index, fact] of task.required_facts.entries()) {
      const holds = matcher(task, fact, fields.get(fact.key), context.units);
      if (holds === null) continue;
      const accepted = new Set(acceptedSources(fact));
      const reviewed = new Set((fact.coincidences ?? []).map((c) => c.source_id));
      for (const source of allowed) {
        if (accepted.has(source) || reviewed.has(source) || !shown.has(source)) continue;
        const hits = payloadLeaves(payloads.get(source)).filter(holds);
        if (hits.length > 0)
          findings.push({
            code: "unlisted_source_holds_value",
            message: `required_facts[${index}] (${fact.key}): allowed source ${source} holds ${JSON.stringify(fact.value)} at ${list(hits.map((h) => h.pointer))} but is not in also_in (accepted: ${list(accepted)})`,
          });
      }
    }
    return findings;
  },
};
