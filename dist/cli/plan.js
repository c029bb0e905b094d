import { planGenerate } from "../commands/plan.js";
import { DEFAULTS, group } from "./options.js";
export function registerPlan(program, r) {
    const plan = group(program, "plan", "The authoring plan: task slots frozen before any content exists.");
    plan
        .command("generate")
        .description("Build the slot plan from the protocol and write it (or, with --check, compare it).")
        .option("--protocol <path>", "preregistered protocol", DEFAULTS.protocol)
        .option("--out <path>", "plan file to write or check", DEFAULTS.plan)
        .option("--check", "exit 1 when the plan file differs from a fresh build; write nothing", false)
        .option("--json", "print one JSON object", false)
        .action((o) => r.setExit(planGenerate(o, r.io)));
}
