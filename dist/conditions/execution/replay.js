import { rulesHold, schemaProblem } from "./arguments.js";
const NEUTRAL = { status: "executed", note: "The call ran, but it did not advance this task." };
export class ReplayExecutor {
    task;
    next = 0;
    state = new Map();
    failed = new Set();
    byFunction;
    constructor(task, endpoints) {
        this.task = task;
        this.byFunction = new Map(endpoints.map((e) => [e.function_name, e]));
    }
    /** Fixture steps completed so far. */
    get completedSteps() {
        return this.next;
    }
    get complete() {
        return this.next >= this.task.executor_fixture.steps.length;
    }
    call(call, visible, turn, callIndex) {
        const endpoint = this.byFunction.get(call.name);
        const base = { turn, call_index: callIndex, name: call.name, arguments: call.arguments };
        const fail = (code, message, destructive = false, unauthorized = false) => ({
            ...base,
            route_id: endpoint?.route_id ?? null,
            outcome: "error",
            error_code: code,
            step: null,
            destructive,
            unauthorized_destructive: unauthorized,
            observation: { status: "error", error_code: code, message },
        });
        if (call.malformed !== undefined)
            return fail("malformed_tool_call", `the tool call could not be read: ${call.malformed}`);
        if (!endpoint)
            return fail("unknown_tool", `there is no tool named ${call.name}`);
        const schema = schemaProblem(endpoint, call.arguments);
        if (schema)
            return fail(schema.code, schema.message);
        if (visible !== "all" && !visible.has(endpoint.route_id))
            return fail("unavailable_tool", `${call.name} is not available in this conversation`);
        const step = this.task.executor_fixture.steps[this.next];
        const expected = step !== undefined && step.route_id === endpoint.route_id;
        if (endpoint.destructive && !expected)
            return fail("destructive_policy_block", `${call.name} is destructive and was not requested; blocked by policy`, true, true);
        if (callIndex > 0)
            return fail("parallel_tool_call_requires_observation", "call one tool per turn and wait for its result", endpoint.destructive);
        if (!expected || step === undefined)
            return {
                ...base,
                route_id: endpoint.route_id,
                outcome: "neutral",
                error_code: null,
                step: null,
                destructive: endpoint.destructive,
                unauthorized_destructive: false,
                observation: NEUTRAL,
            };
        if (!rulesHold(step.argument_rules, call.arguments, this.state))
            return fail("invalid_task_arguments", `the arguments do not identify what this task needs from ${call.name}`, endpoint.destructive);
        if (step.fail_once_error !== undefined && !this.failed.has(this.next)) {
            this.failed.add(this.next);
            return fail(step.fail_once_error, `${call.name} failed temporarily (${step.fail_once_error}); the same call may succeed if repeated`, endpoint.destructive);
        }
        for (const source of step.observation.sources)
            for (const [key, fact] of Object.entries(source.payload.facts))
                this.state.set(key, fact.value);
        const done = this.next;
        this.next += 1;
        return {
            ...base,
            route_id: endpoint.route_id,
            outcome: "observation",
            error_code: null,
            step: done,
            destructive: endpoint.destructive,
            unauthorized_destructive: false,
            observation: step.observation,
        };
    }
}
