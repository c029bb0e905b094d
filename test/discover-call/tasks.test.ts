import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";
import { describe, expect, expectTypeOf, it } from "vitest";
import { FabenchError, formatJsonFile, formatProblem } from "../../src/core/index.ts";
import { REFERENCE_DIR } from "./fixtures/reference.ts";
import { discoverCallTaskJsonSchema, parseTaskSet } from "../../src/discover-call/index.ts";
import {
  type Constraint,
  type DiscoverCallTask,
  discoverCallTaskSchema,
  taskReference,
} from "../../src/discover-call/tasks.ts";

const REF = REFERENCE_DIR;
const SCHEMA_FILE = "schemas/discover-call-task.schema.json";

const line = (task: unknown) => JSON.stringify(task);
const bytes = (text: string) => Buffer.from(text, "utf8");

const weather = {
  id: "weather-london",
  prompt: "Weather for London",
  discover_query: "weather forecast API",
  constraints: [{ id: "location", aliases: ["city", "location"], value: "London" }],
};

/** The FabenchError `fn` throws, with its problems as `file:line: code: message` lines. */
function refusal(fn: () => unknown): { error: FabenchError; lines: string[] } {
  try {
    fn();
  } catch (error) {
    if (!(error instanceof FabenchError)) throw error;
    return { error, lines: error.problems.map(formatProblem) };
  }
  throw new Error("expected a FabenchError");
}

describe("reading a task set", () => {
  it("reads every task in file order, skipping blank and # lines, with CRLF endings", () => {
    const text = `# a comment\r\n${line(weather)}\r\n\r\n${line({ ...weather, id: "second" })}\r\n`;
    const set = parseTaskSet(bytes(text), "t.jsonl");
    expect(set.tasks.map((t) => t.id)).toEqual(["weather-london", "second"]);
    expect(set.lines).toEqual([2, 4]);
  });

  it("names the task set by the SHA-256 of its raw bytes, not of its parsed content", () => {
    const a = bytes(`${line(weather)}\n`);
    const b = bytes(`${line(weather)}\n\n`);
    expect(parseTaskSet(a, "a").sha256).toBe(createHash("sha256").update(a).digest("hex"));
    expect(parseTaskSet(b, "b").sha256).not.toBe(parseTaskSet(a, "a").sha256);
  });

  it("keeps the task as written, including an own __proto__ key that zod's copy would drop", () => {
    const task = {
      ...weather,
      constraints: [{ id: "p", aliases: ["__proto__"], value: "x", alias_values: {} }],
    };
    const text = `${line(task).replace('"alias_values":{}', '"alias_values":{"__proto__":["y"]}')}\n`;
    const set = parseTaskSet(bytes(text), "t");
    expect(Object.hasOwn(set.tasks[0]?.constraints[0]?.alias_values ?? {}, "__proto__")).toBe(true);
  });

  it("reads a reference route under its v4 name or its legacy v3 name, oracle", () => {
    const candidates = [{ tool_id: "w.v1", parameters: { city: "London" } }];
    const set = parseTaskSet(
      bytes(
        `${line({ ...weather, reference: { candidates } })}\n${line({ ...weather, id: "b", oracle: { candidates } })}\n`,
      ),
      "t",
    );
    expect(set.tasks.map((t) => taskReference(t)?.candidates[0]?.tool_id)).toEqual(["w.v1", "w.v1"]);
  });
});

describe("a bad task set", () => {
  it("is refused with every problem listed at its line: JSON, schema paths and duplicate ids", () => {
    const text = [
      line(weather),
      "{not json",
      line({ ...weather, id: "two", constraints: [] }),
      line({ ...weather, id: "weather-london" }),
      line({
        ...weather,
        id: "three",
        extra: 1,
        constraints: [
          { id: "c", aliases: ["a", "a"], value: "" },
          { id: "c", aliases: ["b"], value: 1, match: "like", alias_values: { z: ["1"] } },
        ],
      }),
      line({ ...weather, id: "four", reference: { candidates: [] }, oracle: { candidates: [] } }),
      line({
        ...weather,
        id: "five\u0007",
        reference: {
          candidates: [
            { tool_id: "x", parameters: {} },
            { tool_id: "x", parameters: {} },
          ],
        },
      }),
      '{"id": "torn", "prompt": "cut',
    ].join("\n");
    const { error, lines } = refusal(() => parseTaskSet(bytes(text), "tasks.jsonl"));
    expect(error.kind).toBe("input");
    expect(error.code).toBe("invalid_json");
    expect(lines).toEqual([
      "tasks.jsonl:2: invalid_json: not valid JSON: expected a double-quoted property name but found 'n' at column 2",
      "tasks.jsonl:3: invalid_task: constraints: Too small: expected array to have >=1 items",
      "tasks.jsonl:4: duplicate_task_id: task id weather-london is already used on line 1",
      "tasks.jsonl:5: invalid_task: constraints[0].aliases: must not repeat a name",
      "tasks.jsonl:5: invalid_task: constraints[0].value: must not be blank",
      'tasks.jsonl:5: invalid_task: constraints[1].match: Invalid option: expected one of "equals"|"contains"',
      "tasks.jsonl:5: invalid_task: constraints[1].alias_values.z: z is not one of this constraint's aliases",
      'tasks.jsonl:5: invalid_task: (root): Unrecognized key: "extra"',
      "tasks.jsonl:5: invalid_task: constraints[1].id: constraint id c is already used in this task",
      "tasks.jsonl:6: invalid_task: reference.unavailable_reason: no candidates: say why",
      "tasks.jsonl:6: invalid_task: oracle.unavailable_reason: no candidates: say why",
      "tasks.jsonl:6: invalid_task: oracle: give reference or the legacy oracle, not both",
      "tasks.jsonl:7: invalid_task: id: must not hold control or format characters",
      "tasks.jsonl:7: invalid_task: reference.candidates[1].tool_id: x is already a candidate",
      "tasks.jsonl:8: invalid_json: not valid JSON: unterminated string at column 26 (the line is cut off: a torn last line)",
    ]);
  });

  it("is refused when it holds no task: empty, blank or only comments", () => {
    for (const text of ["", "\n\n", "# nothing here\n"]) {
      const { lines } = refusal(() => parseTaskSet(bytes(text), "empty.jsonl"));
      expect(lines).toEqual(["empty.jsonl: empty_task_set: the file holds no tasks"]);
    }
  });

  it("is refused when it is not UTF-8, naming the line", () => {
    const text = Buffer.concat([bytes(`${line(weather)}\n`), Buffer.from([0xff, 0x0a])]);
    const { lines } = refusal(() => parseTaskSet(text, "bin.jsonl"));
    expect(lines).toEqual(["bin.jsonl:2: invalid_utf8: not valid UTF-8 (byte 175)"]);
  });

  it("is refused when a top-level value is not a task object", () => {
    const { lines } = refusal(() => parseTaskSet(bytes("[1]\n42\n"), "x.jsonl"));
    expect(lines).toEqual([
      "x.jsonl:1: invalid_task: (root): Invalid input: expected object, received array",
      "x.jsonl:2: invalid_task: (root): Invalid input: expected object, received number",
    ]);
  });
});

describe("the published task JSON Schema", () => {
  const ajv = () => new Ajv2020.default({ strict: false });

  it("is the JSON Schema generated from the zod schema", () => {
    expect(readFileSync(SCHEMA_FILE, "utf8")).toBe(formatJsonFile(discoverCallTaskJsonSchema()));
  });

  it("refuses what zod refuses among the checks it can express", () => {
    const validate = ajv().compile(JSON.parse(readFileSync(SCHEMA_FILE, "utf8")));
    const bad = [
      { ...weather, constraints: [] },
      { ...weather, prompt: "  " },
      { ...weather, extra: true },
      { ...weather, constraints: [{ id: "c", aliases: ["a", "a"], value: "x" }] },
      { ...weather, reference: { candidates: [] } },
      { ...weather, reference: { candidates: [], unavailable_reason: "r" }, oracle: { candidates: [] } },
      { ...weather, constraints: [{ id: "c", aliases: ["a"], value: "x", normalizers: ["lower"] }] },
    ];
    for (const task of bad) {
      expect(discoverCallTaskSchema.safeParse(task).success).toBe(false);
      expect(validate(task)).toBe(false);
    }
    expect(validate(weather)).toBe(true);
  });
});

const HAS_REF_TASKS = existsSync(`${REF}/tasks`);
describe.skipIf(!HAS_REF_TASKS)("the reference implementation's task sets v1–v4", () => {
  // vitest runs a skipped describe's body to collect its tests: read nothing when the folder is absent.
  const sets = (HAS_REF_TASKS ? ["v1", "v2", "v3", "v4"] : []).map((v) => {
    const path = `${REF}/tasks/${v}.jsonl`;
    return { v, path, raw: readFileSync(path) };
  });

  it("all read, with the task counts and digests its published records name", () => {
    const read = sets.map(({ path, raw }) => parseTaskSet(raw, path));
    expect(read.map((s) => s.tasks.length)).toEqual([6, 18, 18, 18]);
    expect(read.map((s) => s.sha256)).toEqual([
      "19576bcbf416109dfa4e9e161c61fb7d8afdd57bbccf1e5d2c0bf816995bbced",
      "67ce3685c911781f91d9978696eb4ec64192aa03da5df8fb320f8680b6e411ba",
      "d1e18b3affdecd65c09b632ab476b907d09b46ac11718d9aa92156bd0d6f8866",
      "afe9a0d083765011817be01d688ef4f1bb04282604c3a0cfdc84f700951eb3ed",
    ]);
    // v3 names its route `oracle`, v4 `reference`; v4 adds the crypto task's alias_values.
    expect(read[2]?.tasks.every((t) => t.oracle !== undefined && t.reference === undefined)).toBe(true);
    expect(read[3]?.tasks.every((t) => t.reference !== undefined && t.oracle === undefined)).toBe(true);
    const crypto = read[3]?.tasks.find((t) => t.id === "crypto-price");
    expect(crypto?.constraints[0]?.alias_values).toEqual({ id: ["1"] });
  });

  it("every task line passes the published JSON Schema", () => {
    const validate = ajv().compile(JSON.parse(readFileSync(SCHEMA_FILE, "utf8")));
    for (const { raw } of sets)
      for (const text of raw.toString("utf8").split("\n").filter(Boolean))
        expect(validate(JSON.parse(text)), JSON.stringify(validate.errors)).toBe(true);
  });

  const ajv = () => new Ajv2020.default({ strict: false });
});

describe("the task types", () => {
  it("are inferred from the schema", () => {
    expectTypeOf<DiscoverCallTask["constraints"]>().toEqualTypeOf<Constraint[]>();
    expectTypeOf<Constraint["value"]>().toEqualTypeOf<string | number | boolean>();
    expectTypeOf<Constraint["match"]>().toEqualTypeOf<"equals" | "contains" | undefined>();
    expectTypeOf<NonNullable<Constraint["normalizers"]>>().toEqualTypeOf<"url_decode"[]>();
  });
});
