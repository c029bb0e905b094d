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
 *
 * The same reasoning makes a call's outcome a function of the task, the kept calls, the call (name
 * and arguments as JSON) and whether the route called is visible — the executor reads nothing else
 * (no clock, no randomness; `turn` is only copied into the attempt). So outcomes are remembered
 * across sessions (OutcomeMemo, bounded): under a load of trials of the same tasks, most executes
 * are answered without building an executor at all.
 */
import type { Task } from "../authoring/index.ts";
import { QueryMemo } from "./memo.ts";
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

/** What one call gave in one state: the attempt, and whether it moved the state. */
interface Outcome {
  readonly attempt: Attempt;
  readonly changed: boolean;
}

/** Arguments and kept calls longer than this (as JSON) are not remembered: the key would hold them. */
const MAX_KEY_CHARACTERS = 8_192;

/** Outcomes of calls, shared by every session of one server; bounded, least recently used dropped first. */
export class OutcomeMemo {
  private readonly outcomes: QueryMemo<Outcome>;
  private readonly routeOf: ReadonlyMap<string, string>;
  /** A number per task object: two tasks never share a key, whatever their ids. */
  private readonly taskNumbers = new Map<Task, number>();

  constructor(endpoints: readonly Endpoint[], maxEntries: number) {
    this.outcomes = new QueryMemo(maxEntries);
    this.routeOf = new Map(endpoints.map((e) => [e.function_name, e.route_id]));
  }

  get size(): number {
    return this.outcomes.size;
  }

  /** The key of a call in a state, or null when it would be too long to hold. */
  key(task: Task, state: string, name: string, args: unknown, visible: Visible): string | null {
    const json = JSON.stringify(args) ?? "";
    if (json.length + state.length > MAX_KEY_CHARACTERS) return null;
    let number = this.taskNumbers.get(task);
    if (number === undefined) this.taskNumbers.set(task, (number = this.taskNumbers.size));
    const route = this.routeOf.get(name);
    // Only the called route's visibility matters; a name the catalog lacks is refused before it is asked.
    const shown = route === undefined || visible === "all" || visible.has(route) ? "1" : "0";
    return `${number}\u0000${shown}\u0000${name}\u0000${json}\u0000${state}`;
  }

  get(key: string): Outcome | undefined {
    return this.outcomes.get(key);
  }

  set(key: string, outcome: Outcome): void {
    this.outcomes.set(key, outcome);
  }
}

export class SessionReplay {
  private readonly kept: KeptCall[] = [];
  /** The kept calls as text: with the task, what fixes the executor's state (part of a memo key). */
  private state = "";

  constructor(
    readonly task: Task,
    private readonly endpoints: readonly Endpoint[],
    private readonly memo?: OutcomeMemo,
  ) {}

  call(name: string, args: unknown, visible: Visible, turn: number): Attempt {
    const key = this.memo?.key(this.task, this.state, name, args, visible) ?? null;
    const known = key === null ? undefined : this.memo?.get(key);
    const outcome = known ?? this.run(name, args, visible, turn);
    if (key !== null && known === undefined) this.memo?.set(key, outcome);
    if (outcome.changed) {
      this.kept.push({ name, arguments: args });
      this.state += `${name}\t${JSON.stringify(args)}\n`;
    }
    // A remembered attempt was made at another turn with equal (not the same) arguments.
    return known === undefined ? outcome.attempt : { ...known.attempt, turn, arguments: args };
  }

  /** A fresh executor brought to this session's state, then the call. */
  private run(name: string, args: unknown, visible: Visible, turn: number): Outcome {
    const executor = new ReplayExecutor(this.task, this.endpoints);
    for (const past of this.kept) executor.call({ id: "replay", ...past }, "all", 0, 0);
    const returnedBefore = new Set(
      this.task.executor_fixture.responses.filter((r) => executor.hasReturned(r.id)).map((r) => r.id),
    );
    const attempt = executor.call({ id: `call-${turn}`, name, arguments: args }, visible, turn, 0);
    return { attempt, changed: changedState(attempt, returnedBefore) };
  }
}

/** A first return, or a fail-once error (the only refusal that names a response). */
function changedState(attempt: Attempt, returnedBefore: ReadonlySet<string>): boolean {
  if (attempt.response_id === null) return false;
  return attempt.outcome === "error" || !returnedBefore.has(attempt.response_id);
}
