/**
 * `fabench run --estimate`: what a run would send, without sending anything. The matrix is replayed
 * in memory with the reference agent (the turns a perfect reader takes), so model calls, input and
 * tool-schema tokens per condition come from the very prompts a model would receive; output
 * tokens are bounded by the output allowance. Costs come from the price table.
 */
import { costUsd, type Price } from "../../providers/index.ts";
import type { RunRecord } from "./record.ts";
import { runMatrix, type MatrixInput } from "./run.ts";

export interface ConditionEstimate {
  episodes: number;
  model_calls: number;
  input_tokens: number;
  tool_schema_tokens: number;
  reference_output_tokens: number;
  max_output_tokens: number;
}

export interface Estimate {
  readonly episodes: number;
  readonly model_calls: number;
  readonly per_condition: Record<string, ConditionEstimate>;
  readonly price: Price | null;
  /** Expected (reference-sized answers) and worst case (every turn uses the whole output allowance). */
  readonly cost_usd: { expected: number; worst_case: number; expected_with_prompt_cache: number } | null;
}

/**
 * A native search condition is replayed as its portable twin (same engine and k, run by fabench):
 * the provider's search cannot run offline, and the reference agent searches only a search tool
 * it is shown. Its tool-schema tokens are then the portable search tool's plus the loaded tools'.
 */
function portableSearches(searches: MatrixInput["searches"]): Pick<MatrixInput, "searches"> {
  if (searches === undefined) return {};
  return {
    searches: new Map([...searches].map(([id, s]) => [id, { ...s, executor: "fabench" as const }])),
  };
}

export async function estimateRun(
  input: Omit<MatrixInput, "maxErrors">,
  maxOutputTokens: number,
  price: Price | null,
  priceFactor = 1,
): Promise<Estimate> {
  const records: RunRecord[] = [];
  await runMatrix(
    { ...input, maxErrors: null, ...portableSearches(input.searches) },
    {
      now: () => new Date(0),
      clock: () => 0,
      append: (r) => records.push(r),
      progress: () => undefined,
      shouldStop: () => false,
    },
  );
  const perCondition: Record<string, ConditionEstimate> = {};
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
      ((r.turns[0]?.["tokens"] as { tool_schema?: number } | undefined)?.tool_schema ?? 0);
  }
  const totals = Object.values(perCondition).reduce(
    (a, e) => ({
      input: a.input + e.input_tokens,
      output: a.output + e.reference_output_tokens,
      max: a.max + e.max_output_tokens,
      calls: a.calls + e.model_calls,
    }),
    { input: 0, output: 0, max: 0, calls: 0 },
  );
  const round = (usd: number) => Math.round(usd * priceFactor * 10_000) / 10_000;
  return {
    episodes: records.length,
    model_calls: totals.calls,
    per_condition: perCondition,
    price,
    cost_usd:
      price === null
        ? null
        : {
            expected: round(costUsd(price, { input: totals.input, cachedInput: 0, output: totals.output })),
            worst_case: round(costUsd(price, { input: totals.input, cachedInput: 0, output: totals.max })),
            expected_with_prompt_cache: round(
              costUsd(price, { input: totals.input, cachedInput: cached, output: totals.output }),
            ),
          },
  };
}

/** The estimate as `fabench run --estimate` prints it: one row per condition, then the cost. */
export function renderEstimate(agent: string, e: Estimate): string {
  const lines = [
    `estimate for ${agent}: ${e.episodes} episodes, ${e.model_calls} model calls (as the reference agent would take them); nothing was sent`,
    "condition          episodes  calls  input tokens  tool-schema tokens  max output tokens",
  ];
  for (const [condition, c] of Object.entries(e.per_condition))
    lines.push(
      `${condition.padEnd(18)} ${String(c.episodes).padStart(8)} ${String(c.model_calls).padStart(6)} ${String(c.input_tokens).padStart(13)} ${String(c.tool_schema_tokens).padStart(19)} ${String(c.max_output_tokens).padStart(18)}`,
    );
  lines.push(
    e.cost_usd === null
      ? "cost: unknown (give --prices FILE)"
      : `cost: $${e.cost_usd.expected} expected, $${e.cost_usd.worst_case} worst case, $${e.cost_usd.expected_with_prompt_cache} with prompt caching (cache writes not priced)`,
  );
  return `${lines.join("\n")}\n`;
}
