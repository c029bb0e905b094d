/**
 * The judge's frozen prompt. The protocol names the file (relative to the protocol's own folder,
 * as `agent_loop.system_prompt_file` is) and pins its SHA-256: the prompt is part of the protocol,
 * so a prompt whose bytes differ is refused before anything is sent — editing it is a protocol
 * change, not a tweak. Above the marker line is the system prompt, below it the user-message
 * template with exactly one `{{query}}` and one `{{answer}}`.
 */
import { dirname, join } from "node:path";
import type { Protocol } from "../authoring/index.ts";
import { decodeUtf8, FabenchError, readBytes, sha256Hex } from "../core/index.ts";

export type JudgeProtocol = Protocol["judge"];

/** The line that separates the system prompt (above) from the user-message template (below). */
export const USER_MESSAGE_MARKER = "<!-- user message -->";

/** The placeholders of the user-message template; each must appear exactly once. */
export const PLACEHOLDERS = ["{{query}}", "{{answer}}"] as const;

export interface JudgePrompt {
  /** Where it was read from. */
  readonly file: string;
  /** SHA-256 of the file's raw bytes (equal to the protocol's `judge.prompt_sha256`). */
  readonly sha256: string;
  readonly system: string;
  readonly userTemplate: string;
  /** The JSON Schema of the reply, sent as structured output (the protocol's `judge.output_schema`). */
  readonly outputSchema: Readonly<Record<string, unknown>>;
}

/** The judge prompt's path: relative to the protocol file's folder, like the agent's system prompt. */
export function judgePromptPath(protocolPath: string, protocol: Protocol): string {
  return join(dirname(protocolPath), protocol.judge.prompt_file);
}

function refuse(code: string, message: string, file: string): FabenchError {
  // A usage error (exit 2): the inputs given do not make a valid judging setup; nothing was sent.
  return new FabenchError({ kind: "usage", stage: "judge", code, message, file });
}

/**
 * Checks a judge prompt's bytes against the protocol's judge block and splits it. Pure: the bytes
 * come in, the prompt or a usage error comes out. `protocolFile` is named in the hash message.
 */
export function parseJudgePrompt(
  bytes: Uint8Array,
  file: string,
  judge: JudgeProtocol,
  protocolFile: string,
): JudgePrompt {
  const sha256 = sha256Hex(bytes);
  if (sha256 !== judge.prompt_sha256)
    throw refuse(
      "judge_prompt_changed",
      `${file} has SHA-256 ${sha256}, but ${protocolFile} pins judge.prompt_sha256 ${judge.prompt_sha256}; the judge prompt is part of the protocol: changing it is a protocol change`,
      file,
    );
  if (judge.shows_facts)
    throw refuse(
      "judge_shows_facts_unsupported",
      "the protocol's judge.shows_facts is true, but this fabench's judge is shown only the query and the answer",
      file,
    );
  const lines = decodeUtf8(bytes, file, "judge").split("\n");
  const markers = lines.flatMap((line, i) => (line.trimEnd() === USER_MESSAGE_MARKER ? [i] : []));
  if (markers.length !== 1)
    throw refuse(
      "judge_prompt_marker",
      `the prompt needs exactly one line ${USER_MESSAGE_MARKER} between the system prompt and the user-message template; it has ${markers.length}`,
      file,
    );
  const at = markers[0] as number;
  const system = lines.slice(0, at).join("\n").trimEnd();
  const userTemplate = lines
    .slice(at + 1)
    .join("\n")
    .trimEnd();
  for (const placeholder of PLACEHOLDERS) {
    const count = userTemplate.split(placeholder).length - 1;
    if (count !== 1)
      throw refuse(
        "judge_prompt_placeholder",
        `the user-message template must hold ${placeholder} exactly once; it holds it ${count} time(s)`,
        file,
      );
  }
  // The anchors the protocol defines are what the judge is told; a prompt that words one
  // differently would rate on a scale the protocol does not describe.
  for (const dimension of judge.dimensions)
    for (const [point, anchor] of Object.entries(dimension.anchors))
      if (!system.includes(anchor))
        throw refuse(
          "judge_prompt_anchor_missing",
          `the system prompt does not state the anchor of ${dimension.id} ${point} verbatim: ${JSON.stringify(anchor)}`,
          file,
        );
  return { file, sha256, system, userTemplate, outputSchema: judge.output_schema };
}

/** Reads and checks the judge prompt a protocol names (exit 2 when it is missing or changed). */
export function loadJudgePrompt(protocolPath: string, protocol: Protocol): JudgePrompt {
  const file = judgePromptPath(protocolPath, protocol);
  return parseJudgePrompt(readBytes(file, "protocol"), file, protocol.judge, protocolPath);
}
