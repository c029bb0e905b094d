/** `fabench envelope`: the answer contract and scoring one answer. */
import type { Command } from "commander";
import { corpusOption, group, jsonOption, pilotOption, type Registrar } from "./options.ts";

// Commands load when they run, so `fabench --help` and `--version` import no schemas, SDKs or tokenizers.
const loadEnvelope = () => import("../commands/envelope.ts");

export function registerEnvelope(program: Command, r: Registrar): void {
  const envelope = group(
    program,
    "envelope",
    "The final-answer envelope: its schema, and scoring one answer.",
  );
  envelope
    .command("schema")
    .description("Print the envelope's JSON Schema (for providers' structured output).")
    .action(async () => r.setExit(await (await loadEnvelope()).envelopeSchemaCommand(r.io)));
  envelope
    .command("score")
    .description(
      "Score one agent's final text for one task: every metric, and the verdict and reason for every fact.",
    )
    .argument("[envelope]", "file with the agent's final text, or - for standard input", "-")
    .addOption(corpusOption("any file of tasks in the content format"))
    .requiredOption("--task <id>", "semantic_task_id of the task")
    .addOption(pilotOption())
    .addOption(jsonOption())
    .action(async (file: string, o: { corpus: string; task: string; json: boolean }) =>
      r.setExit(await (await loadEnvelope()).envelopeScore({ ...o, envelope: file }, r.io)),
    );
}
