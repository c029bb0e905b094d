/** `fabench envelope schema` and `fabench envelope score`: the answer contract and one episode's score. */
import { parseCorpusText, taskSchema, type Task } from "../authoring/index.ts";
import { decodeUtf8, inputError, issuePath, loadUnitConverter, readTextFile } from "../core/index.ts";
import { envelopeJsonSchema, parseEnvelope } from "../envelope/index.ts";
import { scoreEpisode, type EpisodeScore } from "../metrics/index.ts";
import { EXIT, printJson, type CliIo } from "./shell/io.ts";

export function envelopeSchemaCommand(io: CliIo): number {
  printJson(io, envelopeJsonSchema());
  return EXIT.ok;
}

export interface EnvelopeScoreOptions {
  readonly corpus: string;
  readonly task: string;
  /** A file, or "-" (the default) for standard input. */
  readonly envelope: string;
  readonly json: boolean;
}

export async function envelopeScore(options: EnvelopeScoreOptions, io: CliIo): Promise<number> {
  const task = findTask(options.corpus, options.task);
  const text = await readEnvelopeText(options.envelope, io);
  const score = scoreEpisode(task, parseEnvelope(text), await loadUnitConverter());
  if (options.json)
    printJson(io, {
      semantic_task_id: task.semantic_task_id,
      envelope_valid: score.envelope_valid,
      malformed_reason: score.malformed_reason,
      metrics: score.metrics,
      facts: score.facts,
    });
  else io.out(renderScore(task.semantic_task_id, score));
  return EXIT.ok;
}

/** The task with this id from any file of tasks in the content format. */
function findTask(path: string, id: string): Task {
  const { rows } = parseCorpusText(readTextFile(path, "corpus").text, path);
  const row = rows.find(
    (r) =>
      typeof r.value === "object" &&
      r.value !== null &&
      (r.value as Record<string, unknown>)["semantic_task_id"] === id,
  );
  if (!row) throw inputError("corpus", "unknown_task", `no task ${id} in this file`, { file: path });
  const parsed = taskSchema.safeParse(row.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw inputError(
      "corpus",
      "invalid_task",
      `${id} does not fit the task schema: ${issue ? `${issuePath(issue.path)}: ${issue.message}` : "invalid"}`,
      { file: path, line: row.line },
    );
  }
  return parsed.data;
}

async function readEnvelopeText(source: string, io: CliIo): Promise<string> {
  if (source !== "-") return readTextFile(source, "envelope").text;
  if (!io.readStdin)
    throw inputError("envelope", "unreadable_file", "standard input is not available", { file: "-" });
  return decodeUtf8(await io.readStdin(), "-", "envelope");
}

function renderScore(id: string, score: EpisodeScore): string {
  const lines = [
    `${id}: envelope ${score.envelope_valid ? "valid" : `malformed (${score.malformed_reason})`}`,
    "",
    "metric                       value",
  ];
  for (const [name, value] of Object.entries(score.metrics))
    lines.push(`${name.padEnd(28)} ${formatValue(value)}`);
  lines.push(
    "",
    "#   key                          licensed  value  unit   source  duplicate  contradicts  reason",
  );
  for (const f of score.facts)
    lines.push(
      [
        String(f.index).padEnd(3),
        f.key.slice(0, 28).padEnd(28),
        yes(f.licensed).padEnd(9),
        yes(f.value_ok).padEnd(6),
        yes(f.unit_ok).padEnd(6),
        yes(f.source_ok).padEnd(7),
        yes(f.duplicate).padEnd(10),
        yes(f.contradicts).padEnd(12),
        f.reason,
      ].join(" "),
    );
  if (score.facts.length === 0) lines.push("(no facts)");
  return `${lines.join("\n")}\n`;
}

function yes(value: boolean | null): string {
  return value === null ? "-" : value ? "yes" : "no";
}

function formatValue(value: number | boolean | null): string {
  if (value === null) return "null";
  if (typeof value === "boolean") return String(value);
  return Number.isInteger(value) ? String(value) : value.toFixed(4);
}
