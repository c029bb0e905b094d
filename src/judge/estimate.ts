/**
 * What judging would send and cost, without sending anything (`judge run --estimate`): every
 * request is built exactly as it would be, so the count is the real request count and the token
 * count is of the real request bodies.
 */
import type { TokenCounter } from "../conditions/execution/index.ts";
import { costUsd, type Price } from "../providers/index.ts";
import type { JudgingBase } from "./plan.ts";
import { prepareEpisode, type JudgeContext, type JudgeEpisode } from "./run.ts";

export interface JudgeEstimate {
  readonly episodes: number;
  readonly requests: number;
  readonly not_judged: number;
  readonly input_tokens: number;
  readonly max_output_tokens: number;
  readonly expected_output_tokens: number;
  readonly price: Price | null;
  readonly cost_usd: { expected: number; worst_case: number } | null;
}

/**
 * What judging would send, without sending it: every request is built as it would be and counted
 * with the run's default tokenizer. The expected reply is one with a rationale of the full allowed
 * length (cut from the prompt's own prose, so it tokenizes like text); the worst case uses the whole
 * output allowance.
 */
export function estimateJudging(
  episodes: readonly JudgeEpisode[],
  context: JudgeContext,
  counter: TokenCounter,
  price: Price | null,
): JudgeEstimate {
  let requests = 0;
  let input = 0;
  for (const episode of episodes) {
    const prepared = prepareEpisode(episode, context);
    if (prepared.kind !== "request") continue;
    requests += 1;
    input += counter.count(JSON.stringify(prepared.request.provider));
  }
  const typical = Object.fromEntries([
    ...context.judge.dimensions.map((d) => [d.id, d.max] as const),
    ["rationale", [...context.prompt.system].slice(0, context.judge.rationale_max_chars).join("")],
  ]);
  const expectedOutput = requests * counter.count(JSON.stringify(typical));
  const maxOutput = requests * context.settings.max_output_tokens;
  const round = (usd: number) => Math.round(usd * 10_000) / 10_000;
  return {
    episodes: episodes.length,
    requests,
    not_judged: episodes.length - requests,
    input_tokens: input,
    max_output_tokens: maxOutput,
    expected_output_tokens: expectedOutput,
    price,
    cost_usd:
      price === null
        ? null
        : {
            expected: round(costUsd(price, { input, cachedInput: 0, output: expectedOutput })),
            worst_case: round(costUsd(price, { input, cachedInput: 0, output: maxOutput })),
          },
  };
}

/** The estimate for the judge `spec` names, before it is made: no model, no settings of its own. */
export function estimateJudgingFor(
  spec: string,
  episodes: readonly JudgeEpisode[],
  base: JudgingBase,
  counter: TokenCounter,
  price: Price | null,
): JudgeEstimate {
  const context: JudgeContext = { ...base, identity: { agent: spec, model: null, settings: {} } };
  return estimateJudging(episodes, context, counter, price);
}

export function renderEstimate(judge: string, e: JudgeEstimate): string {
  return [
    `estimate for ${judge}: ${e.episodes} episodes, ${e.requests} judge requests (${e.not_judged} episode(s) have no answer to rate); nothing was sent`,
    `input tokens: ${e.input_tokens}; output tokens: about ${e.expected_output_tokens} expected, at most ${e.max_output_tokens}`,
    e.cost_usd === null
      ? "cost: unknown (give --prices FILE)"
      : `cost: $${e.cost_usd.expected} expected, $${e.cost_usd.worst_case} worst case`,
    "",
  ].join("\n");
}
