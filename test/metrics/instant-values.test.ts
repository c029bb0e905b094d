/**
 * A date-time fact is an instant (#32): an answer that writes the gold instant in another ISO 8601
 * spelling scores right; another instant, a zone-less time or a bare date does not.
 */
import { describe, expect, it } from "vitest";
import { loadUnitConverter } from "../../src/core/index.ts";
import { parseEnvelope } from "../../src/envelope/index.ts";
import { scoreEpisode } from "../../src/metrics/index.ts";
import { envelopeText, field, formTask, required } from "./form-task.ts";

const units = await loadUnitConverter();

function recall(gold: string, kind: "identifier" | "text", answer: unknown): number {
  const task = formTask({
    required_facts: [required("slot_start", gold, null)],
    answer_fields: [field("slot_start", kind)],
  });
  const text = envelopeText([{ key: "slot_start", value: answer, unit: null, source_id: "SRC-A" }]);
  return scoreEpisode(task, parseEnvelope(text), units).metrics.required_fact_recall as number;
}

describe("date-time identifiers compare as instants", () => {
  it.each([
    ["the gold spelling", "2026-04-07T08:00:00Z", 1],
    ["+00:00 for Z", "2026-04-07T08:00:00+00:00", 1],
    ["the same instant at +02:00", "2026-04-07T10:00:00+02:00", 1],
    ["fractional seconds", "2026-04-07T08:00:00.000Z", 1],
    ["without seconds", "2026-04-07T08:00Z", 1],
    ["another instant", "2026-04-07T08:00:00+02:00", 0],
    ["no zone: names no instant", "2026-04-07T08:00:00", 0],
    ["a bare date", "2026-04-07", 0],
  ])("%s scores %d", (_label, answer, expected) => {
    expect(recall("2026-04-07T08:00:00Z", "identifier", answer)).toBe(expected);
  });

  it("leaves text fields and non-date identifiers to their own rules", () => {
    // A free-text field is wording, not a time: only the normalised text counts.
    expect(recall("2026-04-07T08:00:00Z", "text", "2026-04-07T10:00:00+02:00")).toBe(0);
    expect(recall("BK-6308", "identifier", "BK-6308")).toBe(1);
    expect(recall("BK-6308", "identifier", "BK-6309")).toBe(0);
  });
});
