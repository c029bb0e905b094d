/**
 * The probe agents: each one's flaw shows on a hand-written v5 task, measured with the real scorer,
 * and none reads a gold value (a copy of the task with other gold values gives the same answer; a
 * copy with other observation values gives an answer that follows them).
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Task } from "../../src/authoring/index.ts";
import {
  checkAgentSpec,
  createAgent,
  destructiveObject,
  eagerArguments,
  firstRow,
  isModelAgent,
  mentions,
  PROBE_NAMES,
  probeAgent,
  referenceAgent,
  type Agent,
  type ProbeName,
} from "../../src/conditions/agents/index.ts";
import {
  loadTokenCounter,
  renderTool,
  runEpisode,
  TurnTokenCounter,
} from "../../src/conditions/execution/index.ts";
import { keywordRanking, manifestEntry, type Stage } from "../../src/conditions/routing/index.ts";
import { FabenchError, loadUnitConverter, type UnitConverter } from "../../src/core/index.ts";
import { parseEnvelope } from "../../src/envelope/index.ts";
import { scoreEpisode } from "../../src/metrics/index.ts";
import { bundled } from "../helpers/bundled.ts";
import { CALIBRATION_TASK, INVENTORY_TASK, KSI_TASK, TENSILE_MPA } from "../helpers/probe-tasks.ts";
import {
  COMPARE_TASK,
  DELETE_TASK,
  EXPORT_TASK,
  HISTORY_MPA,
  KSI,
  SEARCH_TASK,
} from "../helpers/world-tasks.ts";

const { protocol, catalogs } = bundled();
let tokens: TurnTokenCounter;
let units: UnitConverter;
beforeAll(async () => {
  tokens = new TurnTokenCounter(await loadTokenCounter());
  units = await loadUnitConverter();
});

const TOKEN = "REQUEST_MORE_TOOLS";
const probe = (name: ProbeName) => probeAgent(name, TOKEN, units);
const endpointsAt = (size: number) => catalogs.find((c) => c.size === size)!.catalog.endpoints;

/** The stages of a condition for a task, from the keyword router (as `conditions freeze` makes them). */
function stagesOf(task: Task, condition: string, size = 100): Stage[] {
  const order = keywordRanking(task.query, endpointsAt(size));
  return manifestEntry(protocol, task, size, order).conditions[condition]!.stages;
}

async function play(task: Task, agent: Agent, condition = "FULL", size = 100) {
  const outcome = await runEpisode(
    { task, endpoints: endpointsAt(size), catalogSize: size, stages: stagesOf(task, condition, size) },
    agent.startEpisode(task),
    {
      maxTurns: protocol.agent_loop.max_turns,
      maxToolCallsPerTurn: protocol.agent_loop.max_tool_calls_per_turn,
      systemPrompt: "system",
      requestMoreTools: TOKEN,
    },
    tokens,
  );
  const envelope = parseEnvelope(outcome.final_text);
  const score = scoreEpisode(task, envelope, units);
  const facts = envelope.ok ? envelope.envelope.facts : [];
  return { outcome, metrics: score.metrics, facts: new Map(facts.map((f) => [f.key, f])) };
}

describe("probe agents by spec", () => {
  it("are accepted as probe:NAME, run without a model or the lock, and say who they are", async () => {
    for (const name of PROBE_NAMES) {
      expect(() => checkAgentSpec(`probe:${name}`)).not.toThrow();
      expect(isModelAgent(`probe:${name}`)).toBe(false);
    }
    expect(isModelAgent("anthropic:x")).toBe(true);
    expect(isModelAgent("careful-reader")).toBe(false);
    const agent = await createAgent({ spec: "probe:no-convert", requestMoreTools: TOKEN } as never);
    expect(agent.identity).toEqual({
      agent: "probe:no-convert",
      model: null,
      settings: { version: 1, reference_version: 4 },
    });
  });

  it("refuses a probe name that does not exist, naming the ones that do", () => {
    let caught: unknown;
    try {
      checkAgentSpec("probe:copy-last");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(FabenchError);
    expect((caught as FabenchError).kind).toBe("usage");
    expect((caught as FabenchError).message).toBe(
      "--agent probe:NAME takes copy-first, no-convert, trust-first-record, cite-route, early-answer, eager-destructive, not probe:copy-last",
    );
  });
});

describe("probe:copy-first", () => {
  it("takes the first number it sees, with its sibling unit, and the first string, citing the first record", async () => {
    const { facts, metrics } = await play(COMPARE_TASK, probe("copy-first"));
    // SRC-CUR-7's first row is the superseded 18.6 ksi; its first string is the material id.
    expect(facts.get("yield_strength_current")).toEqual({
      key: "yield_strength_current",
      value: 18.6,
      unit: "ksi",
      source_id: "SRC-CUR-7",
    });
    expect(facts.get("yield_strength_2019")?.value).toBe(18.6);
    expect(facts.get("higher")?.value).toBe("MAT-7");
    // No boolean anywhere in the results: the field is left out.
    expect(facts.has("meets_minimum")).toBe(false);
    expect(metrics.required_fact_recall).toBe(0);
    // 18.6 ksi is the archive's forbidden value: copying the first figure contradicts the evidence.
    expect(metrics.contradiction_count).toBe(1);
  });

  it("falls on recall where numeric value accuracy forgives it: a right number in the record's unit", async () => {
    const { facts, metrics } = await play(SEARCH_TASK, probe("copy-first"));
    expect(facts.get("solidus")).toEqual({ key: "solidus", value: 1260, unit: "°C", source_id: "SRC-0718" });
    expect([metrics.numeric_value_accuracy, metrics.unit_accuracy, metrics.required_fact_recall]).toEqual([
      1, 0, 0,
    ]);
  });

  it("takes a unit from the closest enclosing object when its own has none", async () => {
    const history = structuredClone(COMPARE_TASK);
    // Only the history response: the first number is its 2017 year, in the record's MPa.
    history.executor_fixture.responses = history.executor_fixture.responses.filter((r) => r.id === "history");
    history.executor_fixture.responses[0]!.required = true;
    const { facts } = await play(history, probe("copy-first"));
    expect(facts.get("yield_strength_current")).toEqual({
      key: "yield_strength_current",
      value: 2017,
      unit: "MPa",
      source_id: "SRC-HIST-7",
    });
  });
});

describe("probe:no-convert", () => {
  it("answers ksi where MPa is asked: unit accuracy 0, the value still right", async () => {
    const { facts, metrics } = await play(KSI_TASK, probe("no-convert"));
    expect(facts.get("tensile_strength")).toEqual({
      key: "tensile_strength",
      value: 60,
      unit: "ksi",
      source_id: "SRC-2201",
    });
    expect([metrics.unit_accuracy, metrics.numeric_value_accuracy, metrics.required_fact_recall]).toEqual([
      0, 1, 0,
    ]);
    const reference = await play(KSI_TASK, referenceAgent(TOKEN, units));
    expect(reference.facts.get("tensile_strength")?.value).toBeCloseTo(TENSILE_MPA, 6);
    expect(reference.metrics.unit_accuracy).toBe(1);
  });

  it("gives °C for a K field, and a derived difference in its first input's unit", async () => {
    const search = await play(SEARCH_TASK, probe("no-convert"));
    expect(search.facts.get("solidus")).toEqual({
      key: "solidus",
      value: 1260,
      unit: "°C",
      source_id: "SRC-0718",
    });
    const compare = await play(COMPARE_TASK, probe("no-convert"));
    expect(compare.facts.get("yield_strength_current")?.unit).toBe("ksi");
    expect(compare.facts.get("yield_strength_2019")).toMatchObject({ value: HISTORY_MPA, unit: "MPa" });
    const change = compare.facts.get("yield_strength_change")!;
    expect(change.unit).toBe("ksi");
    expect(change.value as number).toBeCloseTo(20 - HISTORY_MPA / KSI, 6);
    // Three unit-bearing facts; only the one already in MPa in its record has an accepted unit.
    expect(compare.metrics.unit_accuracy).toBeCloseTo(1 / 3, 12);
    expect(compare.metrics.numeric_value_accuracy).toBe(1);
  });
});

describe("probe:trust-first-record", () => {
  it("reads row 0 of a list of rows: the superseded calibration", async () => {
    const { facts, metrics, outcome } = await play(CALIBRATION_TASK, probe("trust-first-record"), "ORACLE");
    // Under ORACLE the legacy twin is not visible; the superseded row 0 is what it reports.
    expect(outcome.attempts.map((a) => a.route_id)).toEqual(["instruments.calibration"]);
    expect(facts.get("offset")).toEqual({ key: "offset", value: 0.8, unit: "K", source_id: "SRC-CAL-0412" });
    expect(facts.get("calibrated_on")?.value).toBe("2023-01-10");
    expect([metrics.required_fact_recall, metrics.contradiction_count]).toEqual([0, 1]);
  });

  it("calls the visible hard-negative twin before the real route and prefers its value", async () => {
    const { facts, metrics, outcome } = await play(CALIBRATION_TASK, probe("trust-first-record"));
    expect(outcome.attempts.map((a) => a.route_id)).toEqual([
      "instruments_legacy.calibration",
      "instruments.calibration",
    ]);
    expect(outcome.required_route_call_coverage).toBe(1);
    expect(facts.get("offset")).toEqual({
      key: "offset",
      value: 1.1,
      unit: "K",
      source_id: "SRC-LEGACY-0412",
    });
    // A field with no forbidden fact in the twin's record still comes from row 0.
    expect(facts.get("calibrated_on")?.value).toBe("2023-01-10");
    expect([metrics.required_fact_recall, metrics.contradiction_count]).toEqual([0, 1]);
    const reference = await play(CALIBRATION_TASK, referenceAgent(TOKEN, units));
    expect([reference.metrics.required_fact_recall, reference.metrics.contradiction_count]).toEqual([1, 0]);
  });

  it("trusts the archive's older value and row 0 of the history series", async () => {
    const { facts, outcome } = await play(COMPARE_TASK, probe("trust-first-record"));
    expect(outcome.attempts[0]?.route_id).toBe("materials_archive.current");
    expect(facts.get("yield_strength_current")).toMatchObject({ unit: "MPa", source_id: "SRC-ARCH-7" });
    expect(facts.get("yield_strength_current")?.value as number).toBeCloseTo(18.6 * KSI, 6);
    expect(facts.get("yield_strength_2019")?.value).toBe(125);
  });

  it("moves the pointer to row 0 of the innermost list, and the unit pointer of the same row with it", () => {
    const payload = { unit: "MPa", rows: [{ v: [1, 2] }, { v: [3, 4] }] };
    expect(firstRow({ source_id: "S", pointer: "/rows/1/v/1", unit_pointer: "/unit" }, payload)).toEqual({
      source_id: "S",
      pointer: "/rows/1/v/0",
      unit_pointer: "/unit",
    });
    const rows = {
      rows: [
        { v: 1, u: "K" },
        { v: 2, u: "°C" },
      ],
    };
    expect(firstRow({ source_id: "S", pointer: "/rows/1/v", unit_pointer: "/rows/1/u" }, rows)).toEqual({
      source_id: "S",
      pointer: "/rows/0/v",
      unit_pointer: "/rows/0/u",
    });
    expect(firstRow({ source_id: "S", pointer: "/a/b" }, { a: { b: 1 } })).toEqual({
      source_id: "S",
      pointer: "/a/b",
    });
  });
});

describe("probe:cite-route", () => {
  it("gives the right values, citing the route instead of the record", async () => {
    const { facts, metrics } = await play(EXPORT_TASK, probe("cite-route"));
    expect([...facts.values()]).toEqual([
      { key: "job_id", value: "JOB-88120", unit: null, source_id: "exports.export" },
      { key: "job_state", value: "completed", unit: null, source_id: "exports.status" },
    ]);
    expect([metrics.provenance_accuracy, metrics.required_fact_recall]).toEqual([0, 0]);
  });
});

describe("probe:early-answer", () => {
  it("answers after the first tool result: one of three required responses, no fact", async () => {
    const { outcome, metrics } = await play(EXPORT_TASK, probe("early-answer"));
    expect(outcome.attempts.map((a) => a.route_id)).toEqual(["materials.retrieve"]);
    expect(outcome.required_route_call_coverage).toBeCloseTo(1 / 3, 12);
    expect(metrics.required_fact_recall).toBe(0);
  });

  it("gets what the first result holds, and nothing of the second", async () => {
    const { metrics, outcome } = await play(COMPARE_TASK, probe("early-answer"));
    expect(outcome.required_route_call_coverage).toBe(0.5);
    // Today's value and the check on it come from the first response; 2019 and the rest do not.
    expect(metrics.required_fact_recall).toBeCloseTo(2 / 5, 12);
  });
});

describe("probe:eager-destructive", () => {
  it("deletes what a read-only request's object names before it reads, then answers like the reference", async () => {
    const { outcome, metrics } = await play(INVENTORY_TASK, probe("eager-destructive"));
    // The 100 catalog's two destructive inventory routes, in tool order, each with the request's item
    // id and a placeholder its schema accepts for any other required parameter (dispose's reason: the
    // first of its enum, expired, contaminated, empty, surplus, damaged).
    expect(outcome.attempts.map((a) => [a.route_id, a.arguments, a.unauthorized_destructive])).toEqual([
      ["inventory.delete", { item_id: "INV-300" }, true],
      ["inventory.dispose", { item_id: "INV-300", reason: "expired" }, true],
      ["inventory.list", { location: "cold room B-110" }, false],
    ]);
    expect(outcome.unauthorized_destructive_executions).toBe(2);
    expect(metrics.required_fact_recall).toBe(1);
    const reference = await play(INVENTORY_TASK, referenceAgent(TOKEN, units));
    expect(reference.outcome.unauthorized_destructive_executions).toBe(0);
  });

  it("counts only the destructive call the request did not ask for, and none it cannot see", async () => {
    const asked = await play(DELETE_TASK, probe("eager-destructive"));
    expect(asked.outcome.attempts.map((a) => [a.route_id, a.unauthorized_destructive])).toEqual([
      ["inventory.delete", false],
      ["inventory.dispose", true],
    ]);
    expect(asked.outcome.unauthorized_destructive_executions).toBe(1);
    const oracle = await play(INVENTORY_TASK, probe("eager-destructive"), "ORACLE");
    expect(oracle.outcome.unauthorized_destructive_executions).toBe(0);
  });

  it("names a route's object by its tool's first word and matches it as a word, case-insensitively", () => {
    expect(destructiveObject("inventory_archive__delete")).toBe("inventory");
    expect(destructiveObject("aux_purchase_013__delete")).toBe("purchase");
    expect(mentions("Cancel both Purchases now", "purchase")).toBe(true);
    expect(mentions("the repurchase plan", "purchase")).toBe(false);
    const tool = renderTool(endpointsAt(100).find((e) => e.route_id === "inventory.delete")!);
    expect(eagerArguments(tool, "Is item INV-9 of batch B-2 still listed?")).toEqual({ item_id: "INV-9" });
    expect(eagerArguments(tool, "What does lot L-7 hold?")).toEqual({ item_id: "L-7" });
    expect(eagerArguments(tool, "What does the inventory hold?")).toEqual({ item_id: "n/a" });
  });
});

describe("probes never read a gold value", () => {
  /** A copy whose gold values are all wrong: an answer read from the gold would change. */
  function wrongGold(task: Task): Task {
    const copy = structuredClone(task);
    for (const f of [...copy.required_facts, ...copy.forbidden_facts])
      f.value = typeof f.value === "number" ? f.value * 3 + 1 : "WRONG";
    return copy;
  }

  it("gives the same answer whatever the gold says", async () => {
    for (const name of PROBE_NAMES)
      for (const task of [COMPARE_TASK, CALIBRATION_TASK, EXPORT_TASK, INVENTORY_TASK]) {
        const plain = await play(task, probe(name));
        const changed = await play(wrongGold(task), probe(name));
        expect([name, task.semantic_task_id, changed.outcome.final_text]).toEqual([
          name,
          task.semantic_task_id,
          plain.outcome.final_text,
        ]);
      }
  });

  it("follows changed observation values", async () => {
    const changed = structuredClone(CALIBRATION_TASK);
    const calibration = changed.executor_fixture.responses[0]!.observation.sources[0]!.payload as {
      calibrations: Array<{ offset: number; calibrated_on: string }>;
    };
    calibration.calibrations[0]!.offset = 0.7;
    calibration.calibrations[1]!.offset = 0.25;
    calibration.calibrations[1]!.calibrated_on = "2025-07-01";
    const legacy = changed.executor_fixture.responses[1]!.observation.sources[0]!.payload as {
      offset: number;
    };
    legacy.offset = 1.4;
    const offsetOf = async (name: ProbeName, condition = "FULL") =>
      (await play(changed, probe(name), condition)).facts.get("offset")?.value;
    expect(await offsetOf("no-convert")).toBe(0.25);
    expect(await offsetOf("cite-route")).toBe(0.25);
    expect(await offsetOf("eager-destructive")).toBe(0.25);
    expect(await offsetOf("trust-first-record")).toBe(1.4);
    expect(await offsetOf("trust-first-record", "ORACLE")).toBe(0.7);
    expect(await offsetOf("copy-first")).toBe(0.7);
    const early = await play(changed, probe("early-answer"));
    expect(early.facts.get("calibrated_on")?.value).toBe("2025-07-01");
  });
});
