/**
 * The explorer's counter (test/helpers/explorer.ts) on a tiny hand-made task and a fake executor
 * whose replies are written here: which replies count as denying a known entity, which write
 * replies carry an id in a foreign format, and which ids it goes on to explore. The bundled
 * corpus's counts (0 and 0 is the acceptance of #32) are asserted once the replay's consistent
 * world is merged.
 */
import { describe, expect, it } from "vitest";
import type { Attempt, ToolCall } from "../../src/conditions/execution/index.ts";
import type { Endpoint } from "../../src/conditions/catalog/index.ts";
import { denies, exploreCorpus, exploreTask, foreignIds, idShape, knownIds } from "../helpers/explorer.ts";
import { bundled } from "../helpers/bundled.ts";
import { KSI_TASK } from "../helpers/probe-tasks.ts";

const { catalogs } = bundled();
const all = catalogs.find((c) => c.size === 100)!.catalog.endpoints;
const pick = (...routes: string[]): Endpoint[] => all.filter((e) => routes.includes(e.route_id));

describe("the explorer's pieces", () => {
  it("reads an id's shape letter by letter and digit by digit", () => {
    expect([idShape("BK-6308"), idShape("BK-1D537790"), idShape("MAT-4471-TI")]).toEqual([
      "AA-9999",
      "AA-9A999999",
      "AAA-9999-AA",
    ]);
  });

  it("counts a not-found that names the id, not a record that merely holds it", () => {
    expect(denies({ status: "ok", result: { artifact_id: "ART-6404", state: "queued" } }, "ART-6404")).toBe(
      false,
    );
    const notFound = {
      error: { code: "MATERIAL_NOT_FOUND", message: "material 'MAT-2201' is not registered" },
    };
    expect(denies(notFound, "MAT-2201")).toBe(true);
    expect(denies(notFound, "MAT-9999")).toBe(false);
    expect(denies({ status: "ok", result: { material_id: "MAT-2201", history: [] } }, "MAT-2201")).toBe(
      false,
    );
  });

  it("finds a write's id whose prefix the task shows only in another shape", () => {
    const known = new Set(["BK-6308", "RES-SEM-02"]);
    const reply = { booking_id: "BK-1D537790", resource_id: "RES-SEM-02", other: "JOB-12" };
    // RES-SEM-02 is known; JOB has no id of its prefix in the task, so nothing to compare with.
    expect(foreignIds(reply, known, { resource_id: "RES-SEM-02" })).toEqual(["BK-1D537790"]);
    expect(foreignIds({ booking_id: "BK-6310" }, known, {})).toEqual([]);
    // A record id sharing the first segment (BK-LIST-3333) is another family: nothing to compare.
    expect(foreignIds({ booking_id: "BK-81137" }, new Set(["BK-LIST-3333"]), {})).toEqual([]);
  });

  it("knows the ids of the request and of every fixture observation", () => {
    // The record's source_id is id-shaped too.
    expect([...knownIds(KSI_TASK)].sort()).toEqual(["MAT-2201", "SRC-2201"]);
  });
});

describe("the explorer on a hand-made task with a fake executor", () => {
  it("calls every id route with every id seen and counts denials and foreign ids", () => {
    // Three routes take an id: materials.current and materials.retrieve (examples MAT-…) and
    // bookings.create (resource_id, example RES-…); materials.search takes none.
    const endpoints = pick("materials.current", "materials.retrieve", "materials.search", "bookings.create");
    const calls: ToolCall[] = [];
    const attempt = (
      call: ToolCall,
      outcome: Attempt["outcome"],
      observation: Record<string, unknown>,
    ): Attempt => ({
      turn: 1,
      call_index: 0,
      name: call.name,
      route_id: null,
      arguments: call.arguments,
      outcome,
      error_code: null,
      response_id: null,
      required: false,
      destructive: false,
      unauthorized_destructive: false,
      observation,
    });
    const executor = {
      call(call: ToolCall): Attempt {
        calls.push(call);
        const id = (call.arguments as Record<string, string>)["material_id"] ?? "";
        if (call.name === "materials__current" && id === "MAT-2201")
          return attempt(call, "observation", {
            status: "ok",
            sources: [{ source_id: "SRC-2201", payload: { material_id: "MAT-2201", lot_id: "LOT-77" } }],
          });
        if (call.name === "bookings__create") return attempt(call, "unmatched", { booking_id: "MAT-12AB" });
        return attempt(call, "unmatched", { error: { message: `material '${id}' is not registered` } });
      },
    };
    const counts = exploreTask(KSI_TASK, endpoints, executor);
    // Seen: MAT-2201 (the request), then SRC-2201 and LOT-77 (the fixture reply): 3 ids × 3 routes.
    expect(counts.calls).toBe(9);
    // In catalog order.
    expect(calls.map((c) => c.name)).toEqual(
      Array(3).fill(["materials__retrieve", "materials__current", "bookings__create"]).flat(),
    );
    // materials.retrieve denies MAT-2201 (known, a material id: counted); the two material routes
    // deny SRC-2201 too (known, but not a material id: only among anyDenials); LOT-77 is unknown.
    expect(counts.denials).toEqual([{ task: "p-ksi", route: "materials.retrieve", id: "MAT-2201" }]);
    expect(counts.anyDenials.map((d) => `${d.route} ${d.id}`)).toEqual([
      "materials.retrieve MAT-2201",
      "materials.retrieve SRC-2201",
      "materials.current SRC-2201",
    ]);
    // bookings.create's reply invents MAT-12AB where the task's MAT ids look like MAT-2201.
    expect(counts.foreign.map((f) => f.id)).toEqual(["MAT-12AB"]);
  });
});

describe("the bundled world under the explorer (#32 acceptance)", () => {
  it("never denies an entity the task knows and never invents an id in a foreign format", () => {
    const counts = exploreCorpus(bundled().corpus.tasks, all);
    // Tens of thousands of calls: every route that takes an id, with every id seen.
    expect(counts.calls).toBeGreaterThan(10_000);
    expect({ denials: counts.denials, foreign: counts.foreign }).toEqual({ denials: [], foreign: [] });
  });
});
