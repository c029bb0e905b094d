/**
 * Provenance by evidence on the bundled corpus (#32 acceptance): for every required fact whose
 * value also sits in another allowed record (its `also_in`) or that is computed from several
 * records, an envelope with every gold value that cites that other record scores recall 1; citing
 * an allowed record the fact does not accept scores that fact wrong.
 */
import { describe, expect, it } from "vitest";
import { acceptedSources, type Task } from "../../src/authoring/index.ts";
import { loadUnitConverter } from "../../src/core/index.ts";
import { parseEnvelope } from "../../src/envelope/index.ts";
import { scoreEpisode } from "../../src/metrics/index.ts";
import { bundled } from "../helpers/bundled.ts";
import { envelopeText } from "./form-task.ts";

const units = await loadUnitConverter();
const { corpus } = bundled();

/** Recall of the gold envelope with fact `index` citing `source` (every other fact its own source). */
function recallCiting(task: Task, index: number, source: string): number {
  const facts = task.required_facts.map((f, i) => ({
    key: f.key,
    value: f.value,
    unit: f.unit,
    source_id: i === index ? source : f.source_id,
  }));
  const text = envelopeText(facts, [...new Set(facts.map((f) => f.source_id))]);
  return scoreEpisode(task, parseEnvelope(text), units).metrics.required_fact_recall as number;
}

describe("the bundled corpus accepts every record that holds a fact's value", () => {
  it("scores recall 1 for a citation of any accepted source, and less for an allowed one it does not accept", () => {
    let alternatives = 0;
    let refused = 0;
    for (const task of corpus.tasks)
      for (const [index, fact] of task.required_facts.entries()) {
        const accepted = acceptedSources(fact).filter((s) => task.allowed_source_ids.includes(s));
        for (const source of accepted) {
          expect(recallCiting(task, index, source), `${task.semantic_task_id} ${fact.key} ${source}`).toBe(1);
          if (source !== fact.source_id) alternatives += 1;
        }
        const other = task.allowed_source_ids.find((s) => !acceptedSources(fact).includes(s));
        if (other === undefined) continue;
        expect(
          recallCiting(task, index, other),
          `${task.semantic_task_id} ${fact.key} ${other}`,
        ).toBeLessThan(1);
        refused += 1;
      }
    // also_in entries and derived facts' other inputs across the corpus; most facts have an
    // allowed record they do not accept.
    expect(alternatives).toBeGreaterThan(40);
    expect(refused).toBeGreaterThan(200);
  });
});
