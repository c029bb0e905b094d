/**
 * The full content checker: identity first, then the corpus header's hashes, then every content
 * rule on every task. Reports every problem with a code; pure (the shell loads the inputs).
 */
import type { RowProblem } from "../row-problem.ts";
import { loneSurrogatePath, normalizeQuery } from "../../core/index.ts";
import type { CorpusRow, CorpusRows } from "../corpus-rows.ts";
import { tasksSha256 } from "../corpus-file.ts";
import { validateIdentity } from "../identity.ts";
import type { Plan } from "../plan.ts";
import type { Protocol } from "../protocol.ts";
import { taskSchema } from "../task.ts";
import { issuePath } from "../../core/index.ts";
import { alsoInRules } from "./also-in.ts";
import { argumentSchemaRules } from "./argument-schema.ts";
import type { CheckContext, TaskRule } from "./context.ts";
import { evidenceRules } from "./evidence.ts";
import { factRules } from "./facts.ts";
import { fieldNameShare, type FieldNameShare } from "./field-names.ts";
import { formRules } from "./form.ts";
import { hasHeader, headerProblems } from "./header.ts";
import { independenceProblems } from "./independence.ts";
import { observationLimitProblems } from "./observation-limits.ts";
import { optionRules } from "./options.ts";
import { pointerRules } from "./pointers.ts";
import { routeRules } from "./routes.ts";
import { ruleFamilyProblems } from "./rule-families.ts";
import { scenarioProblems } from "./scenarios.ts";
import { unlistedRules } from "./unlisted.ts";

export type { CheckContext } from "./context.ts";
export type { FieldNameShare } from "./field-names.ts";

/** Every content rule, by name; each is a small function in its own file group. */
export const CONTENT_RULES: Record<string, TaskRule> = {
  ...routeRules,
  ...argumentSchemaRules,
  ...evidenceRules,
  ...pointerRules,
  ...formRules,
  ...factRules,
  ...alsoInRules,
  ...optionRules,
};

/**
 * Rules whose findings are reported, not failed: content an author should look at (a record that
 * holds a fact's value but is not listed as a source the fact accepts) that may be a coincidence.
 */
export const WARNING_RULES: Record<string, TaskRule> = {
  ...unlistedRules,
};

export interface CorpusCheckReport {
  readonly ok: boolean;
  readonly task_count: number;
  readonly tasks_sha256: string | null;
  readonly errors: RowProblem[];
  /** Findings of the warning rules over the schema-valid tasks: reported, never a failure. */
  readonly warnings: RowProblem[];
  /** Over the schema-valid tasks: how many required facts sit in a field named as their form key. */
  readonly field_name_share: FieldNameShare;
}

export interface CorpusCheckInput {
  readonly corpus: CorpusRows;
  readonly protocol: Protocol;
  readonly protocolSha256: string;
  readonly plan: Plan;
  readonly catalogs: ReadonlyArray<{ size: number; sha256: string }> | null;
  readonly context: CheckContext;
  /** Normalised queries of earlier benchmark surfaces → the file they come from. */
  readonly priorQueries: ReadonlyMap<string, string>;
}

export function checkCorpus(input: CorpusCheckInput): CorpusCheckReport {
  const { corpus } = input;
  // Identity and the header hash every row: a row they cannot hash is reported first, on its line.
  const unwritable = unwritableRows(corpus.rows);
  if (unwritable.length > 0)
    return {
      ok: false,
      task_count: corpus.rows.length,
      tasks_sha256: null,
      errors: unwritable,
      warnings: [],
      field_name_share: fieldNameShare([]),
    };
  const identity = validateIdentity(corpus.rows, input.plan);
  const errors: RowProblem[] = identity.errors.map((e) => ({ ...e }));
  if (hasHeader(corpus.document))
    for (const p of headerProblems({ ...input, document: corpus.document }))
      errors.push({ ...p, semantic_task_id: null, location: "header", line: 1 });
  for (const row of corpus.rows) errors.push(...taskProblems(row, input, CONTENT_RULES));
  errors.push(...crossTaskProblems(corpus.rows));
  const ok = errors.length === 0;
  return {
    ok,
    task_count: corpus.rows.length,
    tasks_sha256: ok ? tasksSha256(corpus.rows.map((r) => r.value)) : null,
    errors,
    warnings: corpus.rows.flatMap((row) => taskProblems(row, input, WARNING_RULES, false)),
    field_name_share: fieldNameShare(validTasks(corpus.rows).map((v) => v.task)),
  };
}

/** Rows holding a string canonical JSON cannot write (a lone surrogate): `not_canonical_json` on the row's line. */
function unwritableRows(rows: readonly CorpusRow[]): RowProblem[] {
  return rows.flatMap((row) => {
    const where = loneSurrogatePath(row.value);
    if (where === null) return [];
    const rawId = (row.value as Record<string, unknown> | null)?.["semantic_task_id"];
    return [
      {
        code: "not_canonical_json",
        semantic_task_id: typeof rawId === "string" && rawId.isWellFormed() ? rawId : null,
        location: row.location,
        line: row.line,
        message: `${where} holds a lone surrogate, which UTF-8 cannot encode (a \\uD800–\\uDFFF escape without its pair)`,
      },
    ];
  });
}

function validTasks(rows: readonly CorpusRow[]) {
  return rows.flatMap((row) => {
    if (observationLimitProblems(row.value).length > 0) return [];
    const parsed = taskSchema.safeParse(row.value);
    return parsed.success ? [{ row, task: parsed.data }] : [];
  });
}

/** The independence, scenario and rule-family rules over every schema-valid task, each problem reported on the later row of its pair. */
function crossTaskProblems(rows: readonly CorpusRow[]): RowProblem[] {
  const valid = validTasks(rows);
  const tasks = valid.map((v) => v.task);
  return [...independenceProblems(tasks), ...scenarioProblems(tasks), ...ruleFamilyProblems(tasks)].map(
    (p) => {
      const { row, task } = valid[p.index] as (typeof valid)[number];
      return {
        code: p.code,
        semantic_task_id: task.semantic_task_id,
        location: row.location,
        line: row.line,
        message: p.message,
      };
    },
  );
}

/** The problems `rules` find in one row; schema problems and the prior-query overlap only with `full`. */
function taskProblems(
  row: CorpusRow,
  input: CorpusCheckInput,
  rules: Record<string, TaskRule>,
  full = true,
): RowProblem[] {
  const value = row.value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return []; // identity reported it
  const rawId = (value as Record<string, unknown>)["semantic_task_id"];
  const id = typeof rawId === "string" ? rawId : null;
  const at = (code: string, message: string): RowProblem => ({
    code,
    semantic_task_id: id,
    location: row.location,
    line: row.line,
    message,
  });
  // Before the schema or any rule walks it: an observation too deep or too large is all that is said.
  const limits = observationLimitProblems(value);
  if (limits.length > 0) return full ? limits.map((p) => at(p.code, p.message)) : [];
  const parsed = taskSchema.safeParse(value);
  if (!parsed.success)
    return full
      ? parsed.error.issues.map((i) => at("invalid_task", `${issuePath(i.path)}: ${i.message}`))
      : [];
  const task = parsed.data;
  const problems = Object.values(rules).flatMap((rule) =>
    rule(task, input.context).map((p) => at(p.code, p.message)),
  );
  const prior = input.priorQueries.get(normalizeQuery(task.query));
  if (full && prior !== undefined)
    problems.push(
      at("prior_query_overlap", `the query normalises to a query of the earlier surface ${prior}`),
    );
  return problems;
}
