/**
 * The quick run-record check in front of zod: whatever it accepts, zod accepts and returns as the
 * same value (keys in the same order); whatever it is not sure of, it leaves to zod.
 */
import { describe, expect, it } from "vitest";
import { runRecordSchema } from "../../src/conditions/runner/record.ts";
import { quickRunRecord } from "../../src/conditions/runner/record-fast.ts";
import { makeRecord } from "../export/fixtures.ts";

const json = (v: unknown) => JSON.parse(JSON.stringify(v)) as Record<string, unknown>;
const base = () => json(makeRecord());

/** quick ⊆ zod, and equal values where quick answers. */
function agrees(value: unknown): "quick" | "zod" {
  const quick = quickRunRecord(json(value));
  const parsed = runRecordSchema.safeParse(json(value));
  if (quick === null) return "zod";
  expect(parsed.success).toBe(true);
  expect(JSON.stringify(quick)).toBe(JSON.stringify(parsed.data));
  return "quick";
}

describe("quickRunRecord", () => {
  it("takes a well-formed record as zod returns it", () => {
    expect(agrees(base())).toBe("quick");
    const { timings, shard, metadata, ...head } = base();
    const searched = { ...head, search_count: 2, routes_loaded: ["a.b"], timings, shard, metadata };
    expect(agrees(searched)).toBe("quick");
    const withMeta = base();
    withMeta["metadata"] = {
      ...(withMeta["metadata"] as object),
      unlocked_by: null,
      progressive_trigger: "gold",
    };
    expect(agrees(withMeta)).toBe("quick");
  });

  it("leaves to zod a record whose keys are out of the schema's order (zod reorders them)", () => {
    const { semantic_task_id, ...rest } = base();
    const reordered = { ...rest, semantic_task_id };
    expect(agrees(reordered)).toBe("zod");
    expect(runRecordSchema.safeParse(reordered).success).toBe(true);
  });

  it("leaves to zod every record zod refuses or changes", () => {
    const mutations: Array<(r: Record<string, unknown>) => void> = [
      (r) => (r["extra"] = 1),
      (r) => delete r["final_text"],
      (r) => (r["trial"] = 0),
      (r) => (r["trial"] = 1.5),
      (r) => (r["catalog_size"] = "100"),
      (r) => (r["status"] = "done"),
      (r) => (r["error_code"] = 3),
      (r) => (r["turns"] = [[]]),
      (r) => (r["turns"] = [null]),
      (r) => (r["turns"] = [JSON.parse('{"turn":1,"__proto__":{"x":1}}')]),
      (r) => (r["candidate_history"] = [{ turn: 1, stage: 0, visible_route_count: 5 }]),
      (r) => (r["tokens"] = { input: 1, output: 2 }),
      (r) => (r["search_count"] = -1),
      (r) => (r["metadata"] = { ...(r["metadata"] as object), protocol_sha256: "A".repeat(64) }),
      (r) => (r["metadata"] = { ...(r["metadata"] as object), trials: 0 }),
      (r) => (r["metadata"] = { ...(r["metadata"] as object), format: "fabench-run-record/v2" }),
      (r) => (r["metadata"] = { ...(r["metadata"] as object), agent_settings: [] }),
      (r) => (r["metadata"] = { ...(r["metadata"] as object), unlocked_by: { gate_stage: null } }),
      (r) => (r["metadata"] = { ...(r["metadata"] as object), progressive_trigger: "sometimes" }),
      (r) => (r["metadata"] = null),
    ];
    for (const mutate of mutations) {
      const r = base();
      mutate(r);
      expect(quickRunRecord(r), String(mutate)).toBeNull();
      agrees(r);
    }
  });
});
