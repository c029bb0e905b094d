import { envelopeSchemaCommand, envelopeScore } from "../commands/envelope.js";
import { group } from "./options.js";
export function registerEnvelope(program, r) {
    const envelope = group(program, "envelope", "The final-answer envelope: its schema, and scoring one answer.");
    envelope
        .command("schema")
        .description("Print the envelope's JSON Schema (for providers' structured output).")
        .action(() => r.setExit(envelopeSchemaCommand(r.io)));
    envelope
        .command("score")
        .description("Score one agent's final text for one task: every metric, and the verdict and reason for every fact.")
        .argument("[envelope]", "file with the agent's final text, or - for standard input", "-")
        .requiredOption("--corpus <file>", "any file of tasks in the content format")
        .requiredOption("--task <id>", "semantic_task_id of the task")
        .option("--json", "print one JSON object", false)
        .action(async (file, o) => r.setExit(await envelopeScore({ ...o, envelope: file }, r.io)));
}
