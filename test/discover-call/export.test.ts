import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import type { Task } from "../../src/authoring/index.ts";
import type { CliIo } from "../../src/commands/shell/io.ts";
import { discoverCallExport } from "../../src/commands/discover-call/export.ts";
import { referenceTurn } from "../../src/conditions/agents/index.ts";
import { ReplayExecutor, renderTool } from "../../src/conditions/execution/index.ts";
import { FabenchError, loadUnitConverter } from "../../src/core/index.ts";
import {
  exportTasks,
  exportTaskSet,
  firstResponse,
  formatTaskSet,
  type SourceTask,
} from "../../src/discover-call/export.ts";
import { constraintAccuracy } from "../../src/discover-call/constraints.ts";
import { parseTaskSet } from "../../src/discover-call/index.ts";
import { bundled, CORPUS_PATH } from "../helpers/bundled.ts";
import { join, useTempDir } from "../helpers/temp.ts";

const SHIPPED = "tasks/discover-call/final-answer-v4.jsonl";

const { corpus, catalogs } = bundled();
const tasks: Task[] = corpus.tasks;
const smallest = [...catalogs].sort((a, b) => a.size - b.size)[0];
const endpoints = smallest?.catalog.endpoints ?? [];
const byRoute = new Map(endpoints.map((e) => [e.route_id, e]));
const units = await loadUnitConverter();
const first = (task: Task) => firstResponse(task.executor_fixture.responses);

/** The #424 reference agent's first call when only the first required response's tool is shown. */
function referenceParameters(task: Task): Record<string, unknown> {
  const endpoint = byRoute.get(first(task)?.route_id ?? "");
  if (endpoint === undefined) throw new Error(`no endpoint for ${task.semantic_task_id}`);
  const request = { messages: [], tools: [renderTool(endpoint)], turn: 1, maxTurns: 2 };
  const turn = referenceTurn(task, "", request, units);
  return turn.toolCalls[0]?.arguments as Record<string, unknown>;
}

const exported = exportTasks(tasks, referenceParameters);
const line = (id: string) => exported.tasks.find((t) => t.id === id);
const source = (id: string) => tasks.find((t) => t.semantic_task_id === id) as Task;

function buffers(): CliIo & { text: () => { out: string; err: string } } {
  let out = "";
  let err = "";
  return { out: (t) => void (out += t), err: (t) => void (err += t), text: () => ({ out, err }) };
}

describe("exporting the #424 corpus as a discover-call task set", () => {
  it("turns a single-step lookup into one equals constraint and its route as the reference", () => {
    const id = "v4-single_property_value_unit_provenance-en-01";
    // One required response; the three not required (archive, datasheet, v1) are hard negatives.
    expect(
      source(id)
        .executor_fixture.responses.filter((r) => r.required)
        .map((r) => r.route_id),
    ).toEqual(["materials.current"]);
    expect(line(id)).toEqual({
      id,
      prompt: source(id).query,
      discover_query: source(id).query,
      constraints: [{ id: "material_id", aliases: ["material_id"], value: "MAT-1104-PE", match: "equals" }],
      reference: {
        candidates: [{ tool_id: "materials.current", parameters: { material_id: "MAT-1104-PE" } }],
      },
    });
  });

  it("scores a multi-call task on its first required response only", () => {
    const id = "v4-transform_or_export_then_status_answer-en-04";
    const required = source(id).executor_fixture.responses.filter((r) => r.required);
    expect(required.map((r) => r.route_id)).toEqual([
      "materials.retrieve",
      "exports.export",
      "exports.status",
      "messaging.share",
    ]);
    // A later step's eq rule (the share's recipient) is not scored.
    expect(required[3]?.argument_rules["recipient"]).toEqual({ eq: "j.okafor@lab.example.org" });
    expect(line(id)?.constraints).toEqual([
      { id: "material_id", aliases: ["material_id"], value: "MAT-6402-AL", match: "equals" },
    ]);
    expect(line(id)?.reference).toEqual({
      candidates: [{ tool_id: "materials.retrieve", parameters: { material_id: "MAT-6402-AL" } }],
    });
  });

  it("fills a required parameter without a rule as the reference agent does", () => {
    const id = "v4-transform_or_export_then_status_answer-ko-03";
    // runtime.execute requires runtime_id and command; the fixture has a rule for runtime_id only.
    expect(byRoute.get("runtime.execute")?.parameters.required).toEqual(["runtime_id", "command"]);
    expect(first(source(id))?.argument_rules).toEqual({ runtime_id: { eq: "RT-6530" } });
    expect(line(id)?.constraints).toEqual([
      { id: "runtime_id", aliases: ["runtime_id"], value: "RT-6530", match: "equals" },
    ]);
    expect(line(id)?.reference?.candidates).toEqual([
      { tool_id: "runtime.execute", parameters: { runtime_id: "RT-6530", command: "n/a" } },
    ]);
  });

  it("leaves out a task whose first call, a search, has no eq rule", () => {
    const id = "v4-single_property_value_unit_provenance-mixed-01";
    expect(first(source(id))?.route_id).toBe("materials.search");
    const rules = Object.values(first(source(id))?.argument_rules ?? { none: { eq: "x" } });
    expect(rules.some((rule) => "eq" in rule)).toBe(false);
    expect(line(id)).toBeUndefined();
    expect(exported.skipped).toContainEqual({
      id,
      route_id: "materials.search",
      reason: "no_expressible_constraint",
    });
  });

  it("has the export's figures: 99 of 144 tasks, 99 constraints, 45 left out", () => {
    expect(exported.tasks).toHaveLength(99);
    expect(exported.constraintCount).toBe(99);
    expect(exported.skipped).toHaveLength(45);
    // Each left-out task starts with a search or a list with no argument rule (39), or only a
    // one_of (3) or an eq_text (3) rule on its location.
    const perRoute = new Map<string | null, number>();
    for (const s of exported.skipped) perRoute.set(s.route_id, (perRoute.get(s.route_id) ?? 0) + 1);
    expect(Object.fromEntries(perRoute)).toEqual({
      "papers.search": 11,
      "inventory.list": 9,
      "sds.search": 7,
      "materials.search": 6,
      "standards.search": 4,
      "instruments.list": 3,
      "suppliers.search": 3,
      "samples.search": 2,
    });
    expect(exported.skipped.every((s) => s.reason === "no_expressible_constraint")).toBe(true);
  });

  it("writes the same bytes every time, whatever copy of the corpus it reads", () => {
    const copy = JSON.parse(JSON.stringify(tasks)) as Task[];
    const first = exportTaskSet(tasks, referenceParameters);
    expect(exportTaskSet(copy, referenceParameters)).toBe(first);
    expect(first).toBe(formatTaskSet(exported.tasks));
    expect(first.endsWith("}\n")).toBe(true);
    expect(first.split("\n")).toHaveLength(100);
  });

  it("is a task set the discover-call reader and the published JSON Schema accept", () => {
    const text = exportTaskSet(tasks, referenceParameters);
    const set = parseTaskSet(Buffer.from(text), "export.jsonl");
    expect(set.tasks.map((t) => t.id)).toEqual(exported.tasks.map((t) => t.id));
    const validate = new Ajv2020.default({ strict: false }).compile(
      JSON.parse(readFileSync("schemas/discover-call-task.schema.json", "utf8")),
    );
    for (const task of set.tasks) expect(validate(task), task.id).toBe(true);
  });

  it("gives every reference candidate parameters the #424 replay executor answers with the first required response", () => {
    for (const task of exported.tasks) {
      const step = first(source(task.id));
      const candidate = task.reference?.candidates[0];
      const endpoint = byRoute.get(candidate?.tool_id ?? "");
      expect(endpoint?.route_id).toBe(step?.route_id);
      if (candidate === undefined || endpoint === undefined) continue;
      const executor = new ReplayExecutor(source(task.id), endpoints);
      const call = { id: "c", name: endpoint.function_name, arguments: candidate.parameters };
      let attempt = executor.call(call, "all", 1, 0);
      // A fail-once step fails the first good call by design; the same call then goes through.
      if (attempt.error_code === step?.fail_once_error) attempt = executor.call(call, "all", 2, 0);
      expect({ id: task.id, outcome: attempt.outcome, response: attempt.response_id }).toEqual({
        id: task.id,
        outcome: "observation",
        response: step?.id,
      });
      // …and the discover-call scorer finds every constraint in them.
      expect(constraintAccuracy(task, candidate.parameters)).toBe(1);
    }
  });

  it("makes constraints of eq rules only, and leaves out a task whose every required response reads state", () => {
    const task = (id: string, ...rules: Array<Record<string, Record<string, unknown>>>): SourceTask => ({
      semantic_task_id: id,
      query: `query ${id}`,
      executor_fixture: {
        responses: [
          // Not required (a hard negative): never the reference.
          { route_id: "other.endpoint", required: false, argument_rules: { z: { eq: "no" } } },
          ...rules.map((r, i) => ({ route_id: `tool.endpoint${i}`, required: true, argument_rules: r })),
        ],
      },
    });
    const result = exportTasks(
      [
        task("mixed", {
          a: { eq: "x" },
          b: { nonempty: true },
          c: { eq: { nested: 1 } },
          d: { eq: " " },
          e: { eq: 3 },
          f: { eq: false },
          g: { eq: null },
        }),
        task("state", { a: { eq: "x" }, b: { state: "fact" } }),
        task("contains", { a: { contains_state: "fact" } }),
        task("none"),
        // The first required response reads state; the second does not, so it is where a task starts.
        task(
          "later",
          { b: { state: "fact" } },
          { a: { eq: "y" }, t: { eq_text: "T" }, o: { one_of: ["p"] } },
        ),
      ],
      () => ({ a: "x" }),
    );
    expect(result.tasks.map((t) => t.constraints)).toEqual([
      [
        { id: "a", aliases: ["a"], value: "x", match: "equals" },
        { id: "e", aliases: ["e"], value: 3, match: "equals" },
        { id: "f", aliases: ["f"], value: false, match: "equals" },
      ],
      [{ id: "a", aliases: ["a"], value: "y", match: "equals" }],
    ]);
    expect(result.tasks.map((t) => t.reference?.candidates[0]?.tool_id)).toEqual([
      "tool.endpoint0",
      "tool.endpoint1",
    ]);
    expect(result.skipped).toEqual([
      { id: "state", route_id: "tool.endpoint0", reason: "first_response_reads_state" },
      { id: "contains", route_id: "tool.endpoint0", reason: "first_response_reads_state" },
      { id: "none", route_id: null, reason: "no_required_responses" },
    ]);
    expect(result.constraintCount).toBe(4);
  });
});

describe("discoverCallExport (the command)", () => {
  const temp = useTempDir();
  const options = (out: string, check = false, json = false) => ({ corpus: CORPUS_PATH, out, check, json });

  it("passes --check on the shipped task set, which is a fresh export of the bundled corpus", () => {
    const io = buffers();
    expect(discoverCallExport(options(SHIPPED, true), io)).toBe(0);
    expect(io.text().out).toMatch(
      /^tasks\/discover-call\/final-answer-v4\.jsonl is up to date: 99 tasks, 99 constraints \(45 of 144 corpus tasks left out — no_expressible_constraint: 45\)/,
    );
    expect(readFileSync(SHIPPED, "utf8")).toBe(exportTaskSet(tasks, referenceParameters));
  });

  it("writes the shipped bytes and reports its figures with --json", () => {
    const out = join(temp(), "set.jsonl");
    const io = buffers();
    expect(discoverCallExport(options(out, false, true), io)).toBe(0);
    expect(readFileSync(out).equals(readFileSync(SHIPPED))).toBe(true);
    expect(JSON.parse(io.text().out)).toMatchObject({
      ok: true,
      written: true,
      corpus_task_count: 144,
      task_count: 99,
      constraint_count: 99,
      skipped_count: 45,
    });
  });

  it("fails --check with exit 1 and a task_set_stale line when the file differs, leaving it untouched", () => {
    const out = join(temp(), "set.jsonl");
    copyFileSync(SHIPPED, out);
    const stale = readFileSync(out, "utf8").replace('"MAT-1104-PE"', '"MAT-1104-XX"');
    expect(stale).not.toBe(readFileSync(SHIPPED, "utf8"));
    writeFileSync(out, stale);
    const io = buffers();
    expect(discoverCallExport(options(out, true), io)).toBe(1);
    expect(io.text().err).toBe(
      // The advice names the file checked: the bare command would rewrite the bundled task set instead.
      `${out}: task_set_stale: differs from a fresh export of ${CORPUS_PATH}; run \`fabench discover-call export --out ${out}\` to rewrite it\n`,
    );
    expect(readFileSync(out, "utf8")).toBe(stale);
  });

  it("fails --check when the file is missing, without creating it", () => {
    const out = join(temp(), "missing.jsonl");
    const io = buffers();
    expect(discoverCallExport(options(out, true, true), io)).toBe(1);
    expect(JSON.parse(io.text().out)).toMatchObject({ ok: false, written: false, up_to_date: false });
    expect(existsSync(out)).toBe(false);
  });

  it("refuses to write over its corpus", () => {
    const corpusCopy = join(temp(), "corpus.json");
    copyFileSync(CORPUS_PATH, corpusCopy);
    const before = readFileSync(corpusCopy);
    let error: unknown;
    try {
      discoverCallExport({ corpus: corpusCopy, out: corpusCopy, check: false, json: false }, buffers());
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FabenchError);
    expect((error as FabenchError).code).toBe("output_is_input");
    expect(readFileSync(corpusCopy).equals(before)).toBe(true);
  });

  it("refuses a file that is not a frozen corpus, naming what it needs", () => {
    const path = join(temp(), "tasks.json");
    writeFileSync(path, JSON.stringify(tasks.slice(0, 2)));
    let error: unknown;
    try {
      discoverCallExport(
        { corpus: path, out: join(temp(), "out.jsonl"), check: false, json: false },
        buffers(),
      );
    } catch (e) {
      error = e;
    }
    expect((error as FabenchError).code).toBe("not_a_frozen_corpus");
    expect(existsSync(join(temp(), "out.jsonl"))).toBe(false);
  });
});
