/**
 * When a staged condition (SR-PROGRESSIVE) shows its next stage. The default trigger widens only on
 * what a deployed system observes — the agent's request for more tools, and a call to a route that
 * exists but is not shown yet — and says nothing of the task's completeness. The origin harness's
 * trigger (an answer given before every required response was returned widens, with the protocol's
 * `incomplete_task_message`; any failed call widens) reads the gold: it is kept only as the
 * labelled, never-gated variant `gold` (`fabench run --progressive-trigger gold`).
 */
import type { Attempt } from "./types.ts";

export const PROGRESSIVE_TRIGGERS = ["observable", "gold"] as const;
export type ProgressiveTrigger = (typeof PROGRESSIVE_TRIGGERS)[number];

/** How a run, score, gate or report names a gold-triggered run. */
export const GOLD_TRIGGER_LABEL = "gold-triggered widening (origin harness, not deployable)";

/**
 * The user message after a request for more tools that showed the next stage, and after one made
 * at the last stage (or under a condition with one stage). Neither says anything of the task: a
 * deployed router answers the same words to the same request whatever the answer would score.
 */
export const MORE_TOOLS_SHOWN = "More tools are now available: the tool list has been extended.";
export const NO_MORE_TOOLS = "No more tools are available: the tools already shown are all there are.";

/**
 * A request for more tools: the reply's first word (leading whitespace ignored) is the token, alone
 * or followed by whitespace. The prompt asks for the token alone; what follows it is not an answer
 * and is not scored unless the turns run out right after it (the last text is the final answer).
 */
export function requestsMoreTools(text: string, token: string): boolean {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith(token)) return false;
  const next = trimmed.charAt(token.length);
  return next === "" || /\s/.test(next);
}

/** A call that failed because its route exists but is not shown at this stage. */
export function hiddenRouteCall(attempt: Pick<Attempt, "error_code">): boolean {
  return attempt.error_code === "unavailable_tool";
}
