/**
 * The replay executor: every condition receives exactly the same tool outputs, taken from the
 * task's frozen fixture, never from a live service — the same call history, the same bytes.
 *
 * A call is checked in this order: malformed; unknown tool; not visible; schema; more than one
 * call in a turn; then looked up. A route the condition does not show answers exactly as a name
 * no catalog has (the same observation but for the name), so calling hidden routes maps nothing;
 * only the attempt, which the agent never sees, records `unavailable_tool` (a hidden catalog
 * route was called). The schema is the endpoint's parameter JSON Schema, every constraint it
 * states (type, enum, bounds, lengths, pattern, format, required, additionalProperties, items);
 * a violation is answered with the route's own validation reply (`replies.validation_error`, the
 * problem in its message) and recorded with its code.
 *
 * The lookup finds the first response (in fixture order) for the call's route whose argument rules
 * hold given the state revealed so far — so responses are taken in any order the data allows, and
 * one that needs an id only another response reveals matches once that response was returned. A
 * found response fails once when the fixture says so, and is otherwise returned: its observation
 * (the same bytes every time it is called), its `reveals` merged into the state the first time. A
 * call no response matches is answered in the route's own shape (see unmatched.ts).
 *
 * There is no destructive-call policy here: a valid destructive call executes. One that matches no
 * required response is marked unauthorized, so the loop's count measures the agent, not the
 * executor.
 *
 * The task's world (#32): a returned response comes back as the call asked for it — its values in
 * the unit the call's unit parameter names, a search's echo of its query the one the call sent
 * (as-asked.ts); a call no response matches is answered knowing the task's entities, a known one
 * existing, and a write's id in the service's own format (unmatched.ts, known.ts, write-ids.ts).
 */
import type { FixtureResponse, Task } from "../../authoring/index.ts";
import { resolvePointer } from "../../core/index.ts";
import { validationObservation } from "../catalog/replies.ts";
import type { Endpoint } from "../catalog/schema.ts";
import { rulesHold, schemaProblem } from "./arguments.ts";
import { asAsked } from "./as-asked.ts";
import { type ReplyWorld, replyWorld } from "./known.ts";
import type { Attempt, ExecutorErrorCode, ToolCall, Visible } from "./types.ts";
import { unmatchedReply } from "./unmatched.ts";

/** The executor's own refusal, as the agent sees it. */
function refusal(code: ExecutorErrorCode, message: string): Record<string, unknown> {
  return { status: "error", error_code: code, message };
}

/** What a name no visible route has is told: the same words whether the catalog has it or not. */
function noSuchTool(name: string): string {
  return `there is no tool named ${name}`;
}

export class ReplayExecutor {
  private readonly state = new Map<string, unknown>();
  private readonly returned = new Set<string>();
  /** Required responses in the order they were first returned. */
  private readonly returnedRequired: FixtureResponse[] = [];
  private readonly failed = new Set<string>();
  private readonly byFunction: ReadonlyMap<string, Endpoint>;
  private readonly required: readonly FixtureResponse[];
  /** The task's entities and id formats: a function of the task and the catalog, never of the run. */
  private readonly world: ReplyWorld;

  constructor(
    private readonly task: Task,
    endpoints: readonly Endpoint[],
  ) {
    this.byFunction = new Map(endpoints.map((e) => [e.function_name, e]));
    this.required = task.executor_fixture.responses.filter((r) => r.required);
    this.world = replyWorld(task, endpoints);
  }

  /** The required responses returned so far, in the order they were first returned. */
  get requiredReturned(): readonly FixtureResponse[] {
    return this.returnedRequired;
  }

  /** Required evidence coverage: required responses returned / required responses (1 when none). */
  get coverage(): number {
    return this.required.length === 0 ? 1 : this.returnedRequired.length / this.required.length;
  }

  /** Whether every required response was returned. */
  get complete(): boolean {
    return this.returnedRequired.length === this.required.length;
  }

  /** Whether response `id` was returned at least once. */
  hasReturned(id: string): boolean {
    return this.returned.has(id);
  }

  call(call: ToolCall, visible: Visible, turn: number, callIndex: number): Attempt {
    const endpoint = this.byFunction.get(call.name);
    const base = { turn, call_index: callIndex, name: call.name, arguments: call.arguments };
    const args =
      typeof call.arguments === "object" && call.arguments !== null && !Array.isArray(call.arguments)
        ? (call.arguments as Record<string, unknown>)
        : null;
    const destructive = endpoint?.destructive ?? false;
    // The response this call names (looked up before the checks, which a refused call still fails):
    // a destructive call is authorized only when it names a required response.
    const match = endpoint !== undefined && args !== null ? this.lookup(endpoint, args) : null;
    const unauthorized = destructive && match?.required !== true;
    const fail = (
      code: ExecutorErrorCode,
      message: string,
      response: FixtureResponse | null = null,
      observation: Record<string, unknown> = refusal(code, message),
    ): Attempt => ({
      ...base,
      route_id: endpoint?.route_id ?? null,
      outcome: "error",
      error_code: code,
      response_id: response?.id ?? null,
      required: response?.required ?? false,
      destructive,
      unauthorized_destructive: unauthorized,
      observation,
    });
    if (call.malformed !== undefined)
      return fail("malformed_tool_call", `the tool call could not be read: ${call.malformed}`);
    if (!endpoint) return fail("unknown_tool", noSuchTool(call.name));
    if (visible !== "all" && !visible.has(endpoint.route_id))
      return fail("unavailable_tool", "", null, refusal("unknown_tool", noSuchTool(call.name)));
    const schema = schemaProblem(endpoint, call.arguments);
    if (schema !== null || args === null) {
      const code = schema?.code ?? "invalid_type";
      const message = schema?.message ?? "arguments must be a JSON object";
      return fail(code, message, null, validationObservation(endpoint, args ?? {}, message) ?? undefined);
    }
    if (callIndex > 0)
      return fail(
        "parallel_tool_call_requires_observation",
        "call one tool per turn and wait for its result",
      );
    const response = match;
    const answered = (observation: Record<string, unknown>, outcome: Attempt["outcome"]): Attempt => ({
      ...base,
      route_id: endpoint.route_id,
      outcome,
      error_code: null,
      response_id: response?.id ?? null,
      required: response?.required ?? false,
      destructive,
      unauthorized_destructive: unauthorized,
      observation,
    });
    if (response === null) return answered(unmatchedReply(endpoint, args, this.world), "unmatched");
    if (response.fail_once_error !== undefined && !this.failed.has(response.id)) {
      this.failed.add(response.id);
      return fail(
        response.fail_once_error,
        `${call.name} failed temporarily (${response.fail_once_error}); the same call may succeed if repeated`,
        response,
      );
    }
    this.markReturned(response);
    const observation = response.observation as unknown as Record<string, unknown>;
    return answered(asAsked(endpoint, args, observation), "observation");
  }

  /** The first response of this route (fixture order) whose rules hold given the state revealed so far. */
  private lookup(endpoint: Endpoint, args: Record<string, unknown>): FixtureResponse | null {
    for (const response of this.task.executor_fixture.responses)
      if (response.route_id === endpoint.route_id && rulesHold(response.argument_rules, args, this.state))
        return response;
    return null;
  }

  /**
   * A response's first return marks it returned and reveals its state; a repeat changes nothing
   * (so the state is a function of the first returns and the fail-once errors alone).
   */
  private markReturned(response: FixtureResponse): void {
    if (this.returned.has(response.id)) return;
    this.returned.add(response.id);
    if (response.required) this.returnedRequired.push(response);
    for (const [name, pointer] of Object.entries(response.reveals ?? {})) {
      const found = resolvePointer(response.observation, pointer);
      // A pointer that resolves to nothing reveals nothing (corpus check refuses such a fixture).
      if (found.found) this.state.set(name, found.value);
    }
  }
}
