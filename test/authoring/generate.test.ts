import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import {
  assembleTasks,
  AUTHORED_FORMAT,
  generateCorpus,
  maskQuery,
  taskJsonSchema,
  taskSchema,
  type AuthoredFile,
  type Task,
} from "../../src/authoring/index.ts";
import { canonicalJson, canonicalSha256, formatJsonFile } from "../../src/core/index.ts";
import { bundled, CORPUS_PATH } from "../helpers/bundled.ts";

const { protocol, plan, catalogs, corpus } = bundled();
const authored = protocol.answer_task_strata.map(
  (s) => JSON.parse(readFileSync(`tasks/authored/${s}.json`, "utf8")) as AuthoredFile,
);
const tasks = corpus.tasks as Task[];

describe("the corpus generator", () => {
  it("assembles the checked-in corpus byte for byte from the authored files and its recorded revision", () => {
    const regenerated = generateCorpus({
      protocol,
      protocolSha256: canonicalSha256(protocol),
      plan,
      catalogs: catalogs.map((c) => ({ size: c.size, sha256: c.catalog.sha256 })),
      sourceRevision: corpus.generator_source_revision,
      authored,
    });
    expect(formatJsonFile(regenerated)).toBe(readFileSync(CORPUS_PATH, "utf8"));
  });

  it("puts tasks in plan order and keeps unplanned or repeated ones, after, for identity to name", () => {
    const [first, second] = plan.slots;
    const task = (id: string, note: string) => ({ semantic_task_id: id, note });
    const files: AuthoredFile[] = [
      {
        format: AUTHORED_FORMAT,
        stratum: "b",
        tasks: [task("stray", "x"), task(second!.semantic_task_id, "2")],
      },
      {
        format: AUTHORED_FORMAT,
        stratum: "a",
        tasks: [task(first!.semantic_task_id, "1"), task(first!.semantic_task_id, "again")],
      },
    ];
    expect(assembleTasks(plan, files)).toEqual([
      task(first!.semantic_task_id, "1"),
      task(second!.semantic_task_id, "2"),
      task("stray", "x"),
      task(first!.semantic_task_id, "again"),
    ]);
  });
});

/** The acceptance figures, computed here directly from the bundled corpus. */
describe("the bundled corpus's independence", () => {
  it("has 144 distinct queries and 144 distinct masked query templates", () => {
    expect(new Set(tasks.map((t) => t.query)).size).toBe(144);
    expect(new Set(tasks.map((t) => maskQuery(t.query))).size).toBe(144);
    // A cruder mask, written here on its own: every run of ASCII letters and digits that holds a digit.
    expect(
      new Set(tasks.map((t) => t.query.replace(/[A-Za-z0-9_.@/-]*\d[A-Za-z0-9_.@/-]*/g, "#").toLowerCase()))
        .size,
    ).toBe(144);
  });

  it("spreads required routes and fact keys: at least 12 combinations per stratum and 40 fact keys overall", () => {
    for (const stratum of protocol.answer_task_strata) {
      const combos = new Set(
        tasks
          .filter((t) => t.answer_task_stratum === stratum)
          .map((t) =>
            canonicalJson({ routes: t.required_routes, keys: t.required_facts.map((f) => f.key).sort() }),
          ),
      );
      expect(combos.size, stratum).toBeGreaterThanOrEqual(12);
    }
    expect(new Set(tasks.flatMap((t) => t.required_facts.map((f) => f.key))).size).toBeGreaterThanOrEqual(40);
  });

  it("gives no two tasks the same list of required fact values", () => {
    expect(new Set(tasks.map((t) => canonicalJson(t.required_facts.map((f) => f.value)))).size).toBe(144);
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
    const bad = [
      { ...corpus.tasks[0], extra: 1 },
      { ...corpus.tasks[0], required_facts: [{ key: "k", value: 1, unit: "GPa" }] },
      { ...corpus.tasks[0], corrective_contract: "no" },
    ];
    for (const task of bad) {
      expect(validate(task)).toBe(false);
      expect(taskSchema.safeParse(task).success).toBe(false);
    }
  });
});
