/** `fabench conveyor`: the prerequisite stages and their evidence. */
import type { Command } from "commander";
import type { conveyorRecord } from "../commands/conveyor.ts";
import { conveyorOption, group, jsonOption, pilotOption, protocolOption, type Registrar } from "./options.ts";

// Commands load when they run, so `fabench --help` and `--version` import no schemas, SDKs or tokenizers.
const loadConveyor = () => import("../commands/conveyor.ts");

export function registerConveyor(program: Command, r: Registrar): void {
  const conveyor = group(
    program,
    "conveyor",
    "The prerequisite stages (#432 and what it needs) and their evidence.",
  );
  conveyor
    .command("status")
    .description("Print the prerequisite chain and what each stage still lacks.")
    .addOption(conveyorOption())
    .addOption(protocolOption())
    .addOption(pilotOption())
    .addOption(jsonOption())
    .action(async (o: { conveyor: string; protocol: string; json: boolean }) =>
      r.setExit(await (await loadConveyor()).conveyorStatus(o, r.io)),
    );
  conveyor
    .command("record")
    .description(
      "Record a stage's result (--state) or a frozen artifact it needs (--artifact-name), hashing the artifact itself.",
    )
    .argument("<stage>", "stage id, e.g. #432")
    .option("--state <state>", "pending, running, succeeded or failed")
    .option("--artifact-name <name>", "a frozen artifact the stage needs, e.g. held_out_condition_manifest")
    .requiredOption("--artifact <file>", "the evidence file; its bytes are hashed")
    .requiredOption("--source-revision <sha>", "40-hex git revision that produced it")
    .option("--run-id <id>", "run identifier")
    .option(
      "--evidence-root <dir>",
      "folder the evidence must lie in, recorded in the conveyor (default: the conveyor's folder)",
    )
    .addOption(conveyorOption("rewritten in place", "state"))
    .addOption(protocolOption())
    .addOption(pilotOption())
    .addOption(jsonOption())
    .action(async (stage: string, o: Omit<Parameters<typeof conveyorRecord>[0], "stage">) =>
      r.setExit(await (await loadConveyor()).conveyorRecord({ ...o, stage }, r.io)),
    );
}
