/**
 * A session's place in its task's fixture, kept as the few calls that moved it rather than as a live
 * ReplayExecutor: an executor indexes the whole catalog (about 4 KB at 100 endpoints, 10 KB at 250),
 * and a server under load holds thousands of sessions. Each execute builds a fresh executor, replays
 * the kept calls, then makes the new one — so every answer is exactly the executor's of `fabench run`.
 *
 * Only two outcomes change an executor's state: a response returned for the first time (it is
 * marked returned and its `reveals` become state) and a fixture's fail-once error (that response
 * will not fail again). Every other outcome — a response returned again, an unmatched call, a
 * refusal — leaves the state as it was, so replaying just those calls, in order, restores it. A
 * session therefore keeps at most two calls per fixture response, however long it runs.
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
  const response = task.executor_fixture.responses.find(
    (r) => r.fail_once_error !== undefined && EXECUTOR_CODES.has(r.fail_once_error),
  );
  return response?.fail_once_error ?? null;
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
    const returnedBefore = new Set(
      this.task.executor_fixture.responses.filter((r) => executor.hasReturned(r.id)).map((r) => r.id),
    );
    const attempt = executor.call({ id: `call-${turn}`, name, arguments: args }, visible, turn, 0);
    if (changedState(attempt, returnedBefore)) this.kept.push({ name, arguments: args });
    return attempt;
  }
}

/** A first return, or a fail-once error (the only refusal that names a response). */
function changedState(attempt: Attempt, returnedBefore: ReadonlySet<string>): boolean {
  if (attempt.response_id === null) return false;
  return attempt.outcome === "error" || !returnedBefore.has(attempt.response_id);
}
