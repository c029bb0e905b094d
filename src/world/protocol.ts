/** The protocol and the authoring plan made from it: loaded, and checked to belong together. */
import {
  PLAN_FORMAT,
  parsePlan,
  parseProtocol,
  PROTOCOL_FORMAT,
  type Plan,
  type Protocol,
} from "../authoring/index.ts";
import { dirname, join } from "node:path";
import { conditionsNotPreregistered, type Preregistration } from "../gates/index.ts";
import {
  bundledPath,
  canonicalSha256,
  inputError,
  loadJson,
  type Loaded,
  readTextFile,
} from "../core/index.ts";

export function loadProtocol(path: string): Loaded<Protocol> {
  return loadJson(path, "protocol", PROTOCOL_FORMAT, parseProtocol);
}

export function loadPlan(path: string): Loaded<Plan> {
  return loadJson(path, "plan", PLAN_FORMAT, parsePlan);
}

/** The agent's system prompt: the protocol's `system_prompt_file`, beside the protocol. */
export function systemPromptPath(protocolPath: string, protocol: Protocol): string {
  return join(dirname(protocolPath), protocol.agent_loop.system_prompt_file);
}

export function loadSystemPrompt(protocolPath: string, protocol: Protocol): string {
  return readTextFile(systemPromptPath(protocolPath, protocol), "protocol").text;
}

/** Refuses a plan built from another protocol (exit 2), saying how a pilot gets its own. */
export function checkPlanOf(plan: Plan, protocolSha256: string, paths: { protocol: string; plan: string }) {
  if (plan.protocol_sha256 !== protocolSha256)
    throw inputError(
      "plan",
      "plan_protocol_mismatch",
      `the plan was built from protocol ${plan.protocol_sha256.slice(0, 12)}…, not ${paths.protocol} (${protocolSha256.slice(0, 12)}…); pass the plan made from this protocol with --plan (for a pilot protocol, \`fabench pilot init DIR\` makes every derived file; never regenerate the frozen plan for it)`,
      { file: paths.plan },
    );
}

/** Whether a protocol, by its canonical hash, is the bundled preregistration. */
export function isPreregistered(protocolSha256: string): boolean {
  return (
    canonicalSha256(loadProtocol(bundledPath("manifests/preregistration.json")).value) === protocolSha256
  );
}

/**
 * What the bundled preregistration covers of a protocol: the whole (by canonical hash), and the
 * deployable conditions it does not name (a search condition a pilot adds), so each verdict over
 * those says not preregistered even beside preregistered ones.
 */
export function preregistrationOf(protocol: Protocol): Preregistration {
  const bundled = loadProtocol(bundledPath("manifests/preregistration.json")).value;
  return {
    protocol: canonicalSha256(bundled) === canonicalSha256(protocol),
    conditionsNot: conditionsNotPreregistered(protocol, bundled),
  };
}

/** What a scored file says of its protocol (a summary's two fields). */
export interface ScoredUnder {
  readonly protocol_id: string;
  readonly protocol_sha256: string;
}

/** The protocol a summary was scored under: refused (exit 2) when its hash is not the summary's. */
export function loadSummaryProtocol(
  summary: ScoredUnder,
  summaryPath: string,
  protocolPath: string,
  stage: string,
): Protocol {
  const protocol = loadProtocol(protocolPath).value;
  if (summary.protocol_sha256 !== canonicalSha256(protocol))
    throw inputError(
      stage,
      "protocol_mismatch",
      `the summary was scored under protocol ${summary.protocol_id} (${summary.protocol_sha256.slice(0, 12)}…), not ${protocolPath}; give that protocol with --protocol${summary.protocol_id.endsWith("-pilot") ? ", or the pilot's folder with --pilot DIR" : ""}`,
      { file: summaryPath },
    );
  return protocol;
}
