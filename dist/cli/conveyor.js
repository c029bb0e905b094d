import { conveyorRecord, conveyorStatus } from "../commands/conveyor.js";
import { DEFAULTS, group } from "./options.js";
export function registerConveyor(program, r) {
    const conveyor = group(program, "conveyor", "The prerequisite stages (#432 and what it needs) and their evidence.");
    conveyor
        .command("status")
        .description("Print the prerequisite chain and what each stage still lacks.")
        .option("--conveyor <file>", "conveyor state", DEFAULTS.conveyor)
        .option("--protocol <path>", "preregistered protocol", DEFAULTS.protocol)
        .option("--json", "print one JSON object", false)
        .action((o) => r.setExit(conveyorStatus(o, r.io)));
    conveyor
        .command("record")
        .description("Record a stage's result (--state) or a frozen artifact it needs (--artifact-name), hashing the artifact itself.")
        .argument("<stage>", "stage id, e.g. #432")
        .option("--state <state>", "pending, running, succeeded or failed")
        .option("--artifact-name <name>", "a frozen artifact the stage needs, e.g. held_out_condition_manifest")
        .requiredOption("--artifact <file>", "the evidence file; its bytes are hashed")
        .requiredOption("--source-revision <sha>", "40-hex git revision that produced it")
        .option("--run-id <id>", "run identifier")
        .option("--conveyor <file>", "conveyor state", DEFAULTS.conveyor)
        .option("--protocol <path>", "preregistered protocol", DEFAULTS.protocol)
        .option("--json", "print one JSON object", false)
        .action((stage, o) => r.setExit(conveyorRecord({ ...o, stage }, r.io)));
}
