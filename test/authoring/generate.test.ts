import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { FIRST_INDEX, generateCorpus, generateTasks, taskJsonSchema, taskSchema, type Task } from "../../src/authoring/index.ts";
import { canonicalSha256, formatJsonFile } from "../../src/core/index.ts";
import { bundled, CORPUS_PATH } from "../helpers/bundled.ts";

const { protocol, plan, catalogs, corpus } = bundled();
const tasks = generateTasks(plan);
const byStratum = (s: string) => tasks.filter((t) => t.answer_task_stratum === s);
const kOf = (t: Task) => FIRST_INDEX + plan.slots.findIndex((s) => s.semantic_task_id === t.semantic_task_id);
const factValue = (t: Task, key: string) => t.required_facts.find((f) => f.key === key)?.value;

describe("the corpus generator", () => {
  it("regenerates the checked-in corpus byte for byte from its recorded revision", () => {
    const regenerated = generateCorpus({
      protocol,
      protocolSha256: canonicalSha256(protocol),
      plan,
      catalogs: catalogs.map((c) => ({ size: c.size, sha256: c.catalog.sha256 })),
      sourceRevision: corpus.generator_source_revision,
    });
    expect(formatJsonFile(regenerated)).toBe(readFileSync(CORPUS_PATH, "utf8"));
  });

  it("writes one task per slot, in plan order, with k = 20001 + position", () => {
    expect(tasks.map((t) => t.semantic_task_id)).toEqual(plan.slots.map((s) => s.semantic_task_id));
    expect(tasks[0]?.query).toMatch(/^\[Case F20001\] /);
    expect(tasks[143]?.query).toMatch(/^\[케이스 F20144\] /);
  });

  it("opens every query with its language's case tag naming F{k}", () => {
    const tags: Record<string, string> = { en: "Case", ko: "사례", es: "Caso", ja: "案件", de: "Fall", mixed: "케이스" };
    for (const t of tasks) expect(t.query.startsWith(`[${tags[t.language]} F${kOf(t)}] `)).toBe(true);
  });

  it("derives each stratum's facts from k as preregistered", () => {
    for (const t of byStratum("single_property_value_unit_provenance")) {
      expect(factValue(t, "youngs_modulus")).toBe(130 + (kOf(t) % 23));
      expect(t.numeric_tolerances).toEqual({ youngs_modulus: { absolute: 0.01 } });
      expect(t.accepted_units).toEqual({ youngs_modulus: ["GPa", "MPa"] });
    }
    for (const t of byStratum("literature_fact_with_source_attribution"))
      expect(String(factValue(t, "paper_text"))).toContain(`stability index of ${kOf(t) % 97}.`);
    for (const t of byStratum("multi_source_comparison")) {
      const c = 120 + (kOf(t) % 19);
      expect([factValue(t, "current_youngs_modulus"), factValue(t, "historical_youngs_modulus")]).toEqual([c, [c - 2, c - 1, c]]);
      expect(t.required_facts.map((f) => f.source_id)).toEqual([`SRC-F${kOf(t)}-A`, `SRC-F${kOf(t)}-B`]);
    }
    for (const t of byStratum("transform_or_export_then_status_answer")) {
      expect(t.required_routes).toEqual(["materials.retrieve", "exports.export"]);
      expect(t.required_facts).toEqual([{ key: "file_uri", value: `file:///tmp/ART-F${kOf(t)}.json`, unit: null, source_id: `SRC-F${kOf(t)}-B` }]);
      expect(t.executor_fixture.steps[1]?.argument_rules).toEqual({ artifact_id: { state: "artifact_id" } });
    }
    for (const t of byStratum("corrective_expansion_required")) {
      expect(t.required_routes).toEqual(["materials.retrieve", "exports.export", "runtime.restart", "messaging.send"]);
      expect(t.corrective_contract).toEqual({ initial_candidate_miss: true, ground_truth_trigger_visible: false });
      expect(t.executor_fixture.steps[3]?.argument_rules).toEqual({ recipient: { eq: "analyst@example.org" }, message: { nonempty: true } });
    }
    for (const t of byStratum("distractor_or_contradiction_resistance")) {
      const f = 140 + (kOf(t) % 11);
      expect(factValue(t, "forecast_youngs_modulus")).toEqual([f, f + 1]);
      expect(t.forbidden_facts.map((x) => x.value)).toEqual([f - 3, [f - 3, f - 2]]);
      expect(JSON.stringify(t.evidence_payloads)).toContain(`quoted ${f - 3} GPa`);
    }
  });

  it("keeps every query unique", () => {
    expect(new Set(tasks.map((t) => t.query)).size).toBe(144);
  });
});

describe("schemas/task.schema.json", () => {
  const schema = JSON.parse(readFileSync("schemas/task.schema.json", "utf8")) as Record<string, unknown>;

  it("is the JSON Schema generated from the zod task schema", () => {
    expect(readFileSync("schemas/task.schema.json", "utf8")).toBe(formatJsonFile(taskJsonSchema()));
  });

  it("accepts every bundled task and refuses what zod refuses", () => {
    const validate = new Ajv2020.default({ strict: false }).compile(schema);
    for (const t of corpus.tasks) expect(validate(t)).toBe(true);
    const bad = [{ ...corpus.tasks[0], extra: 1 }, { ...corpus.tasks[0], required_facts: [{ key: "k", value: 1, unit: "GPa" }] }, { ...corpus.tasks[0], corrective_contract: "no" }];
    for (const task of bad) {
      expect(validate(task)).toBe(false);
      expect(taskSchema.safeParse(task).success).toBe(false);
    }
  });
});
