/** The `--judge` spec: which judges there are, checked before anything is read. */
import { providerOf } from "../conditions/agents/index.ts";
import { usageError } from "../core/index.ts";
import { checkBaseUrl } from "../providers/index.ts";

const JUDGE_FORMS = "anthropic:MODEL, openai:MODEL, openai-compatible:MODEL or command:PATH";

/** Refuses a spec that names no judge — the reference agent included, which rates nothing — before anything is read. */
export function checkJudgeSpec(spec: string, baseUrl: string | undefined): void {
  if (baseUrl !== undefined) checkBaseUrl(baseUrl);
  if (spec === "reference")
    throw usageError(
      "reference_not_a_judge",
      `the reference agent follows fixtures and cannot rate answers; --judge takes ${JUDGE_FORMS}`,
    );
  const { kind, target } = providerOf(spec);
  if (!["anthropic", "openai", "openai-compatible", "command"].includes(kind) || target === "")
    throw usageError("unknown_judge", `--judge takes ${JUDGE_FORMS}, not ${spec}`);
}
