/**
 * `fabench run --estimate`: what a run would send, without sending anything. The matrix is replayed
 * in memory with the reference agent (the turns a perfect reader takes), so model calls, input and
 * tool-schema tokens per condition come from the very prompts a model would receive; output
 * tokens are bounded by the output allowance. Costs come from the price table.
 */
import { runMatrix } from "../conditions/runner/index.js";
import { costUsd } from "../providers/index.js";
export async function estimateRun(input, maxOutputTokens, price, priceFactor = 1) {
    const records = [];
    await runMatrix({ ...input, maxErrors: null }, {
        now: () => new Date(0),
        clock: () => 0,
        append: (r) => records.push(r),
        progress: () => undefined,
        shouldStop: () => false,
    });
    const perCondition = {};
    let cached = 0;
    for (const r of records) {
        const e = (perCondition[r.condition] ??= {
            episodes: 0,
            model_calls: 0,
            input_tokens: 0,
            tool_schema_tokens: 0,
            reference_output_tokens: 0,
            max_output_tokens: 0,
        });
        e.episodes += 1;
        e.model_calls += r.turns.length;
        e.input_tokens += r.tokens.input;
        e.tool_schema_tokens += r.tokens.tool_schema;
        e.reference_output_tokens += r.tokens.output;
        e.max_output_tokens += r.turns.length * maxOutputTokens;
        // With prompt caching the tool block is read from cache on every turn after an episode's first.
        cached +=
            r.tokens.tool_schema -
                (r.turns[0]?.["tokens"]?.tool_schema ?? 0);
    }
    const totals = Object.values(perCondition).reduce((a, e) => ({
        input: a.input + e.input_tokens,
        output: a.output + e.reference_output_tokens,
        max: a.max + e.max_output_tokens,
        calls: a.calls + e.model_calls,
    }), { input: 0, output: 0, max: 0, calls: 0 });
    const round = (usd) => Math.round(usd * priceFactor * 10_000) / 10_000;
    return {
        episodes: records.length,
        model_calls: totals.calls,
        per_condition: perCondition,
        price,
        cost_usd: price === null
            ? null
            : {
                expected: round(costUsd(price, { input: totals.input, cachedInput: 0, output: totals.output })),
                worst_case: round(costUsd(price, { input: totals.input, cachedInput: 0, output: totals.max })),
                expected_with_prompt_cache: round(costUsd(price, { input: totals.input, cachedInput: cached, output: totals.output })),
            },
    };
}
