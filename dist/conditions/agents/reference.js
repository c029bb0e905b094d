export const REFERENCE_AGENT_VERSION = 1;
export function referenceAgent(requestMoreTools) {
    return {
        identity: { agent: "reference", model: null, settings: { version: REFERENCE_AGENT_VERSION } },
        startEpisode: (task) => referenceEpisode(task, requestMoreTools),
    };
}
function referenceEpisode(task, requestMoreTools) {
    return { turn: async (request) => referenceTurn(task, requestMoreTools, request) };
}
/**
 * One turn, derived from the conversation alone (so a fake model server can play it too): every
 * fixture observation in the tool results advanced one step; their sources are what was observed.
 */
export function referenceTurn(task, requestMoreTools, request) {
    const observed = readResults(request);
    const step = task.executor_fixture.steps[observed.advanced];
    if (step === undefined || request.turn >= request.maxTurns)
        return answer(envelope(task, observed));
    const name = step.route_id.replace(".", "__");
    const tool = request.tools.find((t) => t.name === name);
    if (!tool)
        return answer(`${requestMoreTools}\n${envelope(task, observed)}`);
    return {
        text: "",
        toolCalls: [{ id: `call_${request.turn}`, name, arguments: argumentsFor(step, tool, observed.state) }],
    };
}
function answer(text) {
    return { text, toolCalls: [] };
}
/** The fixture observations among the tool results (errors and no-op results carry no sources). */
function readResults(request) {
    const observed = { sources: new Map(), state: new Map(), advanced: 0 };
    for (const message of request.messages) {
        if (message.role !== "tool")
            continue;
        let result;
        try {
            result = JSON.parse(message.content);
        }
        catch {
            continue;
        }
        if (result.status === "error" || result.status === "executed" || !Array.isArray(result.sources))
            continue;
        observed.advanced += 1;
        for (const source of result.sources) {
            observed.sources.set(source.source_id, source.payload.facts);
            for (const [key, fact] of Object.entries(source.payload.facts))
                observed.state.set(key, fact.value);
        }
    }
    return observed;
}
function argumentsFor(step, tool, state) {
    const args = {};
    for (const name of tool.parameters.required) {
        const type = tool.parameters.properties[name]?.type;
        args[name] = type === "integer" || type === "number" ? 1 : "n/a";
    }
    const summary = [...state.values()].map(String).join(", ");
    for (const [name, rule] of Object.entries(step.argument_rules)) {
        if ("eq" in rule)
            args[name] = rule.eq;
        else if ("state" in rule)
            args[name] = state.get(rule.state);
        else if ("contains_state" in rule)
            args[name] = `See ${String(state.get(rule.contains_state))}`;
        else
            args[name] = summary === "" ? "Done." : `Done: ${summary}`;
    }
    return args;
}
/** The envelope of the required facts whose evidence was observed, read from the observations. */
function envelope(task, observed) {
    const facts = task.required_facts.flatMap((required) => {
        const fact = observed.sources.get(required.source_id)?.[required.key];
        return fact === undefined
            ? []
            : [{ key: required.key, value: fact.value, unit: fact.unit, source_id: required.source_id }];
    });
    const sources = [...new Set(facts.map((f) => f.source_id))];
    const answer = facts.length === 0 ? "No evidence was available to answer." : `Answer from ${sources.join(", ")}.`;
    return JSON.stringify({ answer, facts, sources });
}
