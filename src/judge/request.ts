/**
 * The judge's request for one episode, condition-blinded. It is built from three things only: the
 * frozen prompt, the task's query and the envelope's answer. Nothing about how the answer was made
 * — condition, catalog size, router, route ids, function names, token counts, episode or run ids —
 * may reach the judge, so the function takes none of them; names of tools and conditions that the
 * texts themselves carry are replaced by neutral marks, and the replacements in the answer counted.
 */
import { compareCodePoints } from "../core/index.ts";
import type { GenerationSettings, ProviderRequest } from "../providers/index.ts";
import type { JudgePrompt } from "./prompt.ts";

/** The name of the structured-output schema, where an API asks for one. */
export const RESPONSE_FORMAT_NAME = "fabench_judgment";
/** What a route id or function name becomes. */
export const TOOL_MARK = "[tool]";
/** What a condition id becomes. */
export const CONDITION_MARK = "[condition]";

/** The strings the judge must never see. */
export interface ForbiddenTerms {
  /** Route ids (`tool.endpoint`) and function names (`tool__endpoint`): matched in any case. */
  readonly tools: readonly string[];
  /** Condition ids (`FULL`, `SR-5`, …): matched as written, as whole words. */
  readonly conditions: readonly string[];
}

/** The terms of a run: every route id and function name of its catalogs, and the protocol's condition ids. */
export function forbiddenTerms(
  catalogs: ReadonlyArray<{
    readonly endpoints: ReadonlyArray<{ readonly route_id: string; readonly function_name: string }>;
  }>,
  conditionIds: readonly string[],
): ForbiddenTerms {
  const tools = new Set<string>();
  for (const catalog of catalogs)
    for (const endpoint of catalog.endpoints) {
      tools.add(endpoint.route_id);
      tools.add(endpoint.function_name);
    }
  return { tools: [...tools], conditions: [...new Set(conditionIds)] };
}

/** The text with every forbidden term replaced, and how many were. */
export type Blinder = (text: string) => { readonly text: string; readonly redactions: number };

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * An alternation of `terms`, longest first (so `SR-10` is not read as `SR-1` and a longer route id
 * wins over a shorter one it starts with), bounded by anything that cannot continue an identifier.
 * The bounds are ASCII on purpose: `papers.summarize로` (Korean particle) still names the route.
 */
function pattern(terms: readonly string[], flags: string): RegExp | null {
  const sorted = terms.filter((t) => t !== "").sort((a, b) => b.length - a.length || compareCodePoints(a, b));
  if (sorted.length === 0) return null;
  return new RegExp(`(?<![A-Za-z0-9_])(?:${sorted.map(escape).join("|")})(?![A-Za-z0-9_])`, flags);
}

/** Compiles the terms once; the blinder is applied to every episode's query and answer. */
export function makeBlinder(terms: ForbiddenTerms): Blinder {
  // Tool names are identifiers a model may recase; condition ids are upper-case labels whose
  // lower-case forms are ordinary words ("full", "oracle"), so those match only as written.
  const tools = pattern(terms.tools, "gi");
  const conditions = pattern(terms.conditions, "g");
  return (text) => {
    let redactions = 0;
    let out = text;
    for (const [re, mark] of [
      [tools, TOOL_MARK],
      [conditions, CONDITION_MARK],
    ] as const) {
      if (re === null) continue;
      out = out.replace(re, () => {
        redactions += 1;
        return mark;
      });
    }
    return { text: out, redactions };
  };
}

export interface JudgeRequestInput {
  readonly prompt: Pick<JudgePrompt, "system" | "userTemplate" | "outputSchema">;
  /** The task's query, from the corpus. */
  readonly query: string;
  /** The envelope's `answer`, as the run recorded it. */
  readonly answer: string;
  /** Sampling settings of the judge (temperature, output allowance): not content. */
  readonly settings: GenerationSettings;
}

export interface JudgeRequest {
  readonly system: string;
  readonly user: string;
  /** Forbidden terms replaced in the answer (the query's are the same under every condition). */
  readonly redactions: number;
  /** What a provider is sent: the two messages, no tools, the reply schema as structured output. */
  readonly provider: ProviderRequest;
}

/**
 * The request for one episode. The query is blinded too — a query can name a route
 * (`papers.summarize`), and an answer that echoes it must not read differently from its query —
 * but only the answer's replacements are counted, since only they can differ between conditions.
 */
export function buildJudgeRequest(input: JudgeRequestInput, blind: Blinder): JudgeRequest {
  const query = blind(input.query);
  const answer = blind(input.answer);
  const values: Record<string, string> = { query: query.text, answer: answer.text };
  // One pass, a function as replacement: a `{{answer}}` or `$&` inside the query stays text.
  const user = input.prompt.userTemplate.replace(
    /\{\{(query|answer)\}\}/g,
    (_, name: string) => values[name] ?? "",
  );
  return {
    system: input.prompt.system,
    user,
    redactions: answer.redactions,
    provider: {
      system: input.prompt.system,
      messages: [{ role: "user", content: user }],
      tools: [],
      settings: input.settings,
      responseFormat: { name: RESPONSE_FORMAT_NAME, schema: input.prompt.outputSchema },
    },
  };
}
