/**
 * A session's place in its task's fixture, kept as the few calls that moved it rather than as a live
 * ReplayExecutor: an executor indexes the whole catalog (about 4 KB at 100 endpoints, 10 KB at 250),
 * and a server under load holds thousands of sessions. Each execute builds a fresh executor, replays
 * the kept calls, then makes the new one — so every answer is exactly the executor's of `fabench run`.
 *
 * Only two outcomes change an executor's state: an observation (the step advances, its facts become
 * state) and a fixture's fail-once error (that step will not fail again). Every other outcome leaves
 * the state as it was, so replaying just those calls, in order, restores it. A task has a handful of
 * steps, so a session keeps at most two calls per step.
 */
import type { Task } from "../authoring/index.ts";
import type { Endpoint } from "../conditions/catalog/index.ts";
import {
  type Attempt,
  EXECUTOR_ERROR_CODES,
  ReplayExecutor,
  type Visible,
} from "../conditions/execution/index.ts";

interface KeptCall {
  readonly name: string;
  readonly arguments: unknown;
}

const EXECUTOR_CODES: ReadonlySet<string> = new Set(EXECUTOR_ERROR_CODES);

/** A fixture whose fail-once code is also an executor code would make the two indistinguishable. */
export function failOnceClash(task: Task): string | null {
  const step = task.executor_fixture.steps.find(
    (s) => s.fail_once_error !== undefined && EXECUTOR_CODES.has(s.fail_once_error),
  );
  return step?.fail_once_error ?? null;
}

export class SessionReplay {
  private readonly kept: KeptCall[] = [];

  constructor(
    readonly task: Task,
    private readonly endpoints: readonly Endpoint[],
  ) {}

  call(name: string, args: unknown, visible: Visible, turn: number): Attempt {
    const executor = new ReplayExecutor(this.task, this.endpoints);
    for (const past of this.kept) executor.call({ id: "replay", ...past }, "all", 0, 0);
    const step = this.task.executor_fixture.steps[executor.completedSteps];
    const attempt = executor.call({ id: `call-${turn}`, name, arguments: args }, visible, turn, 0);
    const failedOnce =
      attempt.outcome === "error" &&
      step?.fail_once_error !== undefined &&
      attempt.error_code === step.fail_once_error;
    if (attempt.outcome === "observation" || failedOnce) this.kept.push({ name, arguments: args });
    return attempt;
  }
}
