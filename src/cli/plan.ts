/** `fabench plan`: the authoring plan. */
import type { Command } from "commander";
import {
  bundledOutOption,
  DEFAULTS,
  group,
  jsonOption,
  pilotOption,
  pilotOutput,
  protocolOption,
  type Registrar,
} from "./options.ts";

// Commands load when they run, so `fabench --help` and `--version` import no schemas, SDKs or tokenizers.
const loadPlan = () => import("../commands/plan.ts");

export function registerPlan(program: Command, r: Registrar): void {
  const plan = group(program, "plan", "The authoring plan: task slots frozen before any content exists.");
  plan
    .command("generate")
    .description("Build the slot plan from the protocol and write it (or, with --check, compare it).")
    .addOption(protocolOption())
    .addOption(
      pilotOutput(
        bundledOutOption("plan file to write or check; with --pilot, the pilot's", DEFAULTS.plan),
        "plan",
      ),
    )
    .option("--check", "exit 1 when the plan file differs from a fresh build; write nothing", false)
    .addOption(pilotOption())
    .addOption(jsonOption())
    .action(async (o: { protocol: string; out: string; check: boolean; json: boolean }) =>
      r.setExit(await (await loadPlan()).planGenerate(o, r.io)),
    );
}
