/**
 * `fabench run`'s checks before anything is loaded or sent: the options that go together, the
 * output that is not an input and not already there, and the prerequisite lock on model agents.
 */
import { existsSync } from "node:fs";
import { pilotCommands, type Protocol } from "../../authoring/index.ts";
import { checkAgentSpec, isModelAgent, providerOf } from "../../conditions/agents/index.ts";
import { checkConnection, isProviderKind } from "../../providers/index.ts";
import { catalogFiles } from "../../world/index.ts";
import { checkOutput, FabenchError, usageError } from "../../core/index.ts";
import { prerequisiteFor, renderBlocking } from "../../world/index.ts";
import { refuseExistingOutput } from "../shell/resumable.ts";
import type { RunSettings } from "./options.ts";

/** Options that contradict each other or miss a partner, refused before any file is read. */
export function checkRunOptions({ agent, output, limits }: RunSettings): void {
  checkAgentSpec(agent.spec, agent.provider.baseUrl);
  // The key and where it goes, before the world loads: a missing key comes back at once. An
  // estimate sends nothing and needs no key.
  const { kind } = providerOf(agent.spec);
  if (!output.estimate && isProviderKind(kind)) checkConnection({ ...agent.provider, kind });
  if (!output.estimate && output.out === undefined)
    throw usageError("missing_out", "--out is required (or use --estimate)");
  if (
    agent.batch.enabled &&
    output.resume === false &&
    output.out !== undefined &&
    existsSync(`${output.out}.batches.json`)
  )
    throw usageError(
      "output_exists",
      `${output.out}.batches.json exists; add --resume to continue that batch run`,
    );
  if (limits.budgetUsd !== undefined && limits.prices === undefined)
    throw usageError("budget_needs_prices", "--budget-usd needs --prices FILE");
}

/** The run file is none of the inputs (the system prompt and catalogs included) and is new unless resumed. */
export function checkRunOutput(
  { inputs, output }: RunSettings,
  out: string,
  protocol: Protocol,
  promptPath: string,
): void {
  checkOutput(out, {
    inputs: [
      inputs.protocol,
      inputs.plan,
      inputs.corpus,
      inputs.conditionsManifest,
      inputs.conveyor,
      promptPath,
      ...catalogFiles(inputs.catalogs, protocol.catalog_sizes),
    ],
  });
  refuseExistingOutput(out, output.resume);
}

/** The prerequisite lock: model agents are answer inference; nothing is sent while it is unmet. */
export function checkPrerequisite({ agent, inputs, limits }: RunSettings, protocol: Protocol): void {
  if (!isModelAgent(agent.spec)) return;
  const status = prerequisiteFor(protocol, inputs.conveyor);
  if (!status.satisfied)
    throw new FabenchError({
      kind: "blocked",
      stage: "run",
      code: "prerequisite_unmet",
      message: "",
      problems: [
        {
          code: "prerequisite_unmet",
          file: inputs.conveyor,
          message: `answer inference is locked until ${protocol.prerequisites.gate_stage} succeeds; blocking:\n${renderBlocking(status)}\n${lockedHint(agent.spec, limits.prices)}`,
        },
      ],
    });
}

/**
 * What the lock's refusal offers instead of a run line that exits 3: the same agent in a pilot,
 * the commands that work today (the run's other options, such as --base-url, go on its run lines).
 */
function lockedHint(agent: string, prices: string | undefined): string {
  const lines = pilotCommands({
    prefix: "fabench",
    agent,
    ...(prices === undefined ? {} : { prices }),
  });
  return [
    "to answer with this agent today, run a pilot (power and cost planning, never the claim; add this command's other options to its run lines):",
    ...lines.map((l) => `  ${l}`),
  ].join("\n");
}
