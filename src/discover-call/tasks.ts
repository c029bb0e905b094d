/**
 * Discover → Call task sets: the public JSON Lines format, one task a line, as the reference
 * implementation's task sets v1–v4 write it (published as schemas/discover-call-task.schema.json).
 * A task set is checked whole before anything uses it, so a bad line can never leave a partial,
 * billed run behind; its identity is the SHA-256 of the file's bytes, which every record repeats.
 */
import { z } from "zod";
import { issuePath, type Problem, type Result, sha256Hex } from "../core/index.ts";
import { acrossFields, isObject, list } from "./across-fields.ts";
import { byLine, problemsError, readJsonLines } from "./jsonl.ts";
import { queryWarnings } from "./query-warnings.ts";

/** A string with at least one non-space character (`\S` is JavaScript's `trim()` set). */
const text = z.string().regex(/\S/, "must not be blank");

/** Ids end up in file names, logs and tables: bounded, and free of control or invisible characters. */
const safeId = text.max(256).regex(/^[^\p{Cc}\p{Cf}]*$/u, "must not hold control or format characters");

/** A value a constraint compares with; numbers and booleans are compared as their `String(v)`. */
const primitive = z.union([text, z.number(), z.boolean()]);

const unique = (names: readonly unknown[]) => new Set(names).size === names.length;
const names = z.array(text).refine(unique, "must not repeat a name").meta({ uniqueItems: true });

export const constraintSchema = z
  .strictObject({
    id: text,
    aliases: names.min(1).describe("parameter names that may carry the value"),
    value: primitive,
    match: z.enum(["equals", "contains"]).optional().describe("equals when absent"),
    composite_aliases: names
      .optional()
      .describe("parameters that carry all constraints naming them, joined in task order (USD/EUR)"),
    normalizers: z
      .array(z.literal("url_decode"))
      .optional()
      .describe("url_decode: '+' becomes a space, then percent-decoding up to twice"),
    alias_values: z
      .record(text, z.array(primitive).min(1))
      .optional()
      .describe("values accepted as they are (exact match) for one of the aliases, e.g. a provider's own id"),
  })
  .superRefine(
    ...acrossFields((constraint, report) => {
      const aliases = list(constraint["aliases"]);
      const table = constraint["alias_values"];
      if (!isObject(table) || !Array.isArray(constraint["aliases"])) return;
      for (const alias of Object.keys(table))
        if (!aliases.includes(alias))
          report(["alias_values", alias], `${alias} is not one of this constraint's aliases`);
    }),
  );

const candidateSchema = z.strictObject({
  tool_id: text,
  parameters: z.record(z.string(), z.json()),
});

/** The curated route the reference lane takes: candidates in order, or why there is none. */
export const referenceSchema = z
  .strictObject({
    candidates: z.array(candidateSchema),
    unavailable_reason: text.optional(),
  })
  .meta({ anyOf: [{ properties: { candidates: { minItems: 1 } } }, { required: ["unavailable_reason"] }] })
  .superRefine(
    ...acrossFields((reference, report) => {
      const candidates = reference["candidates"];
      if (
        Array.isArray(candidates) &&
        candidates.length === 0 &&
        reference["unavailable_reason"] === undefined
      )
        report(["unavailable_reason"], "no candidates: say why");
      const seen = new Set<unknown>();
      list(candidates).forEach((candidate, index) => {
        const id = isObject(candidate) ? candidate["tool_id"] : undefined;
        if (typeof id !== "string") return;
        if (seen.has(id)) report(["candidates", index, "tool_id"], `${id} is already a candidate`);
        seen.add(id);
      });
    }),
  );

export const discoverCallTaskSchema = z
  .strictObject({
    id: safeId,
    prompt: text.describe("what the adapter is asked"),
    discover_query: text.optional().describe("the fixed discovery query; the prompt when absent"),
    constraints: z.array(constraintSchema).min(1).describe("never shown to the adapter"),
    reference: referenceSchema.optional(),
    oracle: referenceSchema.optional().describe("the legacy name of reference (task set v3)"),
  })
  .meta({ not: { required: ["reference", "oracle"] } })
  .superRefine(
    ...acrossFields((task, report) => {
      if (task["reference"] !== undefined && task["oracle"] !== undefined)
        report(["oracle"], "give reference or the legacy oracle, not both");
      const seen = new Set<unknown>();
      list(task["constraints"]).forEach((constraint, index) => {
        const id = isObject(constraint) ? constraint["id"] : undefined;
        if (typeof id !== "string") return;
        if (seen.has(id))
          report(["constraints", index, "id"], `constraint id ${id} is already used in this task`);
        seen.add(id);
      });
    }),
  );

export type DiscoverCallTask = z.infer<typeof discoverCallTaskSchema>;
export type Constraint = z.infer<typeof constraintSchema>;
export type TaskReference = z.infer<typeof referenceSchema>;

/** A task's reference route under either name. */
export function taskReference(task: DiscoverCallTask): TaskReference | undefined {
  return task.reference ?? task.oracle;
}

export interface TaskSet {
  readonly file: string;
  /** SHA-256 of the file's raw bytes: what records name in `metadata.task_set_sha256`. */
  readonly sha256: string;
  /** In file order, which is plan order. */
  readonly tasks: DiscoverCallTask[];
  /** 1-based line of each task. */
  readonly lines: number[];
  /** Findings reported and not refused (query-warnings.ts), in file order. */
  readonly warnings: Problem[];
}

/** Every problem of a task-set file, or the task set. */
export function checkTaskSet(bytes: Uint8Array, file: string): Result<TaskSet> {
  const { rows, problems } = readJsonLines(bytes, file);
  const tasks: DiscoverCallTask[] = [];
  const lines: number[] = [];
  const firstLine = new Map<string, number>();
  const warnings: Problem[] = [];
  for (const { line, value } of rows) {
    const parsed = discoverCallTaskSchema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        problems.push({
          code: "invalid_task",
          file,
          line,
          message: `${issuePath(issue.path)}: ${issue.message}`,
        });
      continue;
    }
    // The value as written, not zod's copy, which would drop an own `__proto__` key (a parameter
    // name a task may well test for); the schema transforms nothing, so the two agree otherwise.
    const task = value as DiscoverCallTask;
    const earlier = firstLine.get(task.id);
    if (earlier !== undefined) {
      problems.push({
        code: "duplicate_task_id",
        file,
        line,
        message: `task id ${task.id} is already used on line ${earlier}`,
      });
      continue;
    }
    firstLine.set(task.id, line);
    warnings.push(...queryWarnings(task, file, line));
    tasks.push(task);
    lines.push(line);
  }
  if (rows.length === 0 && problems.length === 0)
    problems.push({ code: "empty_task_set", file, message: "the file holds no tasks" });
  if (problems.length > 0) return { ok: false, problems: problems.sort(byLine) };
  return { ok: true, value: { file, sha256: sha256Hex(bytes), tasks, lines, warnings } };
}

/** The task set in `bytes`, or a FabenchError (input, exit 2) listing every problem with its line. */
export function parseTaskSet(bytes: Uint8Array, file: string): TaskSet {
  const checked = checkTaskSet(bytes, file);
  if (!checked.ok) throw problemsError(file, checked.problems);
  return checked.value;
}

export function discoverCallTaskJsonSchema(): Record<string, unknown> {
  return {
    $id: "https://fabench.dev/schemas/discover-call-task.schema.json",
    title: "fabench Discover → Call task (one line of a task-set JSONL file)",
    ...z.toJSONSchema(discoverCallTaskSchema),
  };
}
