import { FabenchError } from "../../core/index.js";
import { ReplayExecutor } from "./replay.js";
import { renderTools } from "./render.js";
function views(task, endpoints, stages, catalogSize) {
    return stages.map((stage) => {
        const shown = stage === "all" ? endpoints : endpoints.filter((e) => stage.includes(e.route_id));
        const visible = stage === "all" ? "all" : new Set(stage);
        return {
            visible,
            tools: renderTools(shown),
            key: `${catalogSize}:${stage === "all" ? "all" : stage.join(",")}`,
            requiredVisible: task.required_routes.filter((r) => visible === "all" || visible.has(r)),
        };
    });
}
export async function runEpisode(input, agent, settings, tokens) {
    try {
        return await loop(input, agent, settings, tokens);
    }
    finally {
        agent.finish?.();
    }
}
async function loop(input, agent, settings, tokens) {
    const { task } = input;
    const stages = views(task, input.endpoints, input.stages, input.catalogSize);
    const state = {
        executor: new ReplayExecutor(task, input.endpoints),
        messages: [
            { role: "system", content: settings.systemPrompt },
            { role: "user", content: task.query },
        ],
        turns: [],
        attempts: [],
        history: [],
        stage: 0,
    };
    const visibleCount = (view) => (view.visible === "all" ? input.endpoints.length : view.visible.size);
    const show = (turn) => {
        const view = stages[state.stage];
        state.history.push({
            turn,
            stage: state.stage,
            visible_route_count: visibleCount(view),
            required_routes_visible: view.requiredVisible,
        });
    };
    show(1);
    let finalText = "";
    let endReason = "turn_limit";
    let error = null;
    for (let turn = 1; turn <= settings.maxTurns; turn++) {
        const view = stages[state.stage];
        const requestTokens = tokens.request(state.messages, view.tools, view.key);
        let response;
        try {
            response = await agent.turn({
                messages: state.messages,
                tools: view.tools,
                turn,
                maxTurns: settings.maxTurns,
                inputTokens: requestTokens.input,
            });
        }
        catch (caught) {
            error =
                caught instanceof FabenchError
                    ? caught
                    : new FabenchError({
                        kind: "internal",
                        stage: "agent",
                        code: "agent_failed",
                        message: caught instanceof Error ? caught.message : String(caught),
                    });
            endReason = "infrastructure_error";
            break;
        }
        finalText = response.text;
        const base = {
            turn,
            stage: state.stage,
            visible_route_count: visibleCount(view),
            text: response.text,
            tool_calls: response.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments })),
            tokens: { ...requestTokens, output: tokens.output(response.text, response.toolCalls) },
            provider_usage: response.usage ?? null,
            model: response.model ?? null,
            requested_more_tools: response.text.trimStart().startsWith(settings.requestMoreTools),
        };
        const canWiden = state.stage < stages.length - 1;
        const widened = response.toolCalls.length === 0
            ? answerTurn(state, base, response, canWiden, settings)
            : toolTurn(state, base, response, view, canWiden);
        if (widened === "ended") {
            endReason = "final_answer";
            break;
        }
        if (widened) {
            state.stage += 1;
            show(turn + 1);
        }
    }
    return summarise(task, {
        ...state,
        finalText,
        endReason,
        error,
        completedSteps: state.executor.completedSteps,
    });
}
/** A turn without a tool call: the episode ends, or — incomplete and widenable — the next stage is shown. */
function answerTurn(state, base, response, canWiden, settings) {
    const widen = canWiden && !state.executor.complete;
    state.turns.push({ ...base, observations: [], event: widen ? "incomplete_widened" : "final_answer" });
    if (!widen)
        return "ended";
    state.messages.push({ role: "assistant", content: response.text, tool_calls: [] }, { role: "user", content: settings.incompleteMessage });
    return true;
}
/** A turn with tool calls: each goes through the executor; a failure widens a progressive condition. */
function toolTurn(state, base, response, view, canWiden) {
    state.messages.push({ role: "assistant", content: response.text, tool_calls: response.toolCalls });
    const made = response.toolCalls.map((call, index) => state.executor.call(call, view.visible, base.turn, index));
    for (const [index, attempt] of made.entries())
        state.messages.push({
            role: "tool",
            tool_call_id: response.toolCalls[index]?.id ?? `call_${base.turn}_${index}`,
            name: attempt.name,
            content: JSON.stringify(attempt.observation),
        });
    state.attempts.push(...made);
    const widen = canWiden && made.some((a) => a.outcome === "error");
    state.turns.push({
        ...base,
        observations: made.map((a) => a.observation),
        event: widen ? "tool_call_widened" : "tool_call",
    });
    return widen;
}
function summarise(task, run) {
    const steps = task.executor_fixture.steps;
    const sum = (pick) => run.turns.reduce((a, t) => a + pick(t), 0);
    return {
        status: run.error ? "error" : "completed",
        error_code: run.error?.code ?? null,
        final_text: run.finalText,
        end_reason: run.endReason,
        turns: run.turns,
        attempts: run.attempts,
        candidate_history: run.history,
        expansions: run.history.length - 1,
        required_routes_advanced: steps.slice(0, run.completedSteps).map((s) => s.route_id),
        required_route_call_coverage: steps.length === 0 ? 1 : run.completedSteps / steps.length,
        unauthorized_destructive_attempts: run.attempts.filter((a) => a.unauthorized_destructive).length,
        unauthorized_destructive_executions: run.attempts.filter((a) => a.destructive && a.outcome !== "error" && a.step === null).length,
        tokens: {
            input: sum((t) => t.tokens.input),
            output: sum((t) => t.tokens.output),
            tool_schema: sum((t) => t.tokens.tool_schema),
        },
    };
}
