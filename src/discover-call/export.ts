/**
 * The #424 final-answer corpus as a Discover → Call task set (§9): each task becomes one line whose
 * reference candidate is its first required fixture response — the first, in fixture order, that
 * needs no state an earlier response reveals, so the call an agent can make first: that response's
 * route, called with parameters that satisfy its argument rules — and whose constraints are its
 * `eq` rules. A multi-call task is therefore scored on its first call only.
 *
 * This stage reads no #424 module (the architecture keeps the two instruments apart), so it names
 * the few task fields it reads structurally, and the caller builds the parameters: the command
 * passes the #424 reference agent's arguments, so there is one way to satisfy a response's rules.
 */
import type { Constraint, DiscoverCallTask, TaskReference } from "./tasks.ts";

type Candidate = TaskReference["candidates"][number];

/** One argument rule of a fixture response: `{eq}`, `{eq_text}`, `{one_of}`, `{nonempty}`, `{state}` or `{contains_state}`. */
export type SourceRule = Readonly<Record<string, unknown>>;

/** What the export reads of a #424 task (authoring's `Task` has this shape). */
export interface SourceTask {
  readonly semantic_task_id: string;
  readonly query: string;
  readonly executor_fixture: { readonly responses: ReadonlyArray<SourceResponse> };
}

export interface SourceResponse {
  readonly route_id: string;
  readonly required: boolean;
  readonly argument_rules: Readonly<Record<string, SourceRule>>;
}

/** Parameters for a task's first required response (`firstResponse`) that satisfy its rules. */
export type FirstStepParameters<T extends SourceTask> = (task: T) => Readonly<Record<string, unknown>>;

/** Why a task has no line in the task set (a discover-call task needs at least one constraint). */
export type SkipReason = "no_required_responses" | "first_response_reads_state" | "no_expressible_constraint";

export interface SkippedTask {
  readonly id: string;
  /** The first required response's route; null when the task requires none. */
  readonly route_id: string | null;
  readonly reason: SkipReason;
}

const readsState = (rule: SourceRule) => "state" in rule || "contains_state" in rule || "fits_slot" in rule;

/**
 * The call a task can start with: its first required response (fixture order) that needs no
 * revealed state; else its first required response (which reads state); undefined when it requires none.
 */
export function firstResponse<R extends SourceResponse>(responses: readonly R[]): R | undefined {
  const required = responses.filter((r) => r.required);
  return required.find((r) => !Object.values(r.argument_rules).some(readsState)) ?? required[0];
}

export interface ExportedTasks {
  /** In corpus order. */
  readonly tasks: DiscoverCallTask[];
  readonly skipped: SkippedTask[];
  readonly constraintCount: number;
}

/**
 * The task set's tasks and the tasks left out. An `eq` rule whose value is a non-blank string, a
 * number or a boolean becomes an `equals` constraint named after its argument; every other rule
 * (`eq_text`, `one_of`, `nonempty`; `eq` on an object, a list, null or a blank string) has no
 * constraint form. A task whose every required response reads state cannot be started without
 * earlier observations; such a task is left out rather than given parameters that break a rule.
 */
export function exportTasks<T extends SourceTask>(
  source: readonly T[],
  parametersFor: FirstStepParameters<T>,
): ExportedTasks {
  const tasks: DiscoverCallTask[] = [];
  const skipped: SkippedTask[] = [];
  let constraintCount = 0;
  for (const task of source) {
    const id = task.semantic_task_id;
    const step = firstResponse(task.executor_fixture.responses);
    if (step === undefined) {
      skipped.push({ id, route_id: null, reason: "no_required_responses" });
      continue;
    }
    if (Object.values(step.argument_rules).some(readsState)) {
      skipped.push({ id, route_id: step.route_id, reason: "first_response_reads_state" });
      continue;
    }
    const constraints = Object.entries(step.argument_rules).flatMap(([name, rule]) => {
      const constraint = constraintFor(name, rule);
      return constraint === null ? [] : [constraint];
    });
    if (constraints.length === 0) {
      skipped.push({ id, route_id: step.route_id, reason: "no_expressible_constraint" });
      continue;
    }
    constraintCount += constraints.length;
    // The parameters are JSON: the response's rule values and the reference agent's placeholders.
    const parameters = { ...parametersFor(task) } as Candidate["parameters"];
    tasks.push({
      id,
      prompt: task.query,
      discover_query: task.query,
      constraints,
      reference: { candidates: [{ tool_id: step.route_id, parameters }] },
    });
  }
  return { tasks, skipped, constraintCount };
}

/** `{eq: v}` on argument `name` → `{id: name, aliases: [name], value: v, match: "equals"}`, when v can be one. */
export function constraintFor(name: string, rule: SourceRule): Constraint | null {
  if (!Object.hasOwn(rule, "eq")) return null;
  const value = rule["eq"];
  return isConstraintValue(value) ? { id: name, aliases: [name], value, match: "equals" } : null;
}

/** What a constraint may compare with: a non-blank string, a finite number or a boolean. */
function isConstraintValue(value: unknown): value is Constraint["value"] {
  if (typeof value === "string") return /\S/.test(value);
  return (typeof value === "number" && Number.isFinite(value)) || typeof value === "boolean";
}

/**
 * The JSON Lines bytes of a task set: one task a line, fields in the public format's order (as the
 * reference task files write them), non-ASCII as raw UTF-8, each line ending in `\n`.
 */
export function formatTaskSet(tasks: readonly DiscoverCallTask[]): string {
  return tasks.map((task) => `${JSON.stringify(task)}\n`).join("");
}

/** The exported task set's bytes (as text). */
export function exportTaskSet<T extends SourceTask>(
  source: readonly T[],
  parametersFor: FirstStepParameters<T>,
): string {
  return formatTaskSet(exportTasks(source, parametersFor).tasks);
}
