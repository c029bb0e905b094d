/** The frozen judge prompt: pinned by hash, split at the marker, its template and anchors checked. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { sha256Hex, type FabenchError } from "../../src/core/index.ts";
import {
  judgePromptPath,
  loadJudgePrompt,
  parseJudgePrompt,
  USER_MESSAGE_MARKER,
} from "../../src/judge/prompt.ts";
import { BUNDLED_PROTOCOL_PATH, bundledProtocol } from "../helpers/protocol.ts";

const protocol = bundledProtocol();
const PROMPT_PATH = "manifests/prompts/judge.md";
const bytes = readFileSync(PROMPT_PATH);

/** Parses `text` as a prompt whose hash the judge block pins (so only the later checks can fail). */
function parsePinned(text: string, judge = protocol.judge) {
  const b = Buffer.from(text, "utf8");
  return parseJudgePrompt(b, "p.md", { ...judge, prompt_sha256: sha256Hex(b) }, "protocol.json");
}

function thrown(fn: () => unknown): FabenchError {
  try {
    fn();
  } catch (error) {
    return error as FabenchError;
  }
  throw new Error("expected an error");
}

describe("the judge prompt", () => {
  it("resolves next to the protocol and matches the protocol's pinned hash", () => {
    expect(judgePromptPath(BUNDLED_PROTOCOL_PATH, protocol)).toBe(PROMPT_PATH);
    const prompt = loadJudgePrompt(BUNDLED_PROTOCOL_PATH, protocol);
    expect(prompt.sha256).toBe(protocol.judge.prompt_sha256);
    expect(prompt.file).toBe(PROMPT_PATH);
    expect(prompt.system).not.toContain(USER_MESSAGE_MARKER);
    expect(prompt.system.startsWith("You review the final answer")).toBe(true);
    expect(prompt.system.endsWith('"rationale": "<at most 300 characters>"}')).toBe(true);
    expect(prompt.userTemplate).toBe("Request:\n{{query}}\n\nAnswer:\n{{answer}}");
    expect(prompt.outputSchema).toEqual(protocol.judge.output_schema);
  });

  it("refuses a prompt one byte longer (exit 2), naming the file, both hashes and why", () => {
    const changed = Buffer.concat([bytes, Buffer.from(" ")]);
    const error = thrown(() => parseJudgePrompt(changed, PROMPT_PATH, protocol.judge, BUNDLED_PROTOCOL_PATH));
    expect(error.kind).toBe("usage");
    expect(error.code).toBe("judge_prompt_changed");
    expect(error.problems[0]?.file).toBe(PROMPT_PATH);
    expect(error.message).toContain(sha256Hex(changed));
    expect(error.message).toContain(protocol.judge.prompt_sha256);
    expect(error.message).toContain(PROMPT_PATH);
    expect(error.message).toContain(
      "the judge prompt is part of the protocol: changing it is a protocol change",
    );
  });

  it("needs exactly one marker line", () => {
    const text = bytes.toString("utf8");
    expect(thrown(() => parsePinned(text.replace(USER_MESSAGE_MARKER, "---"))).code).toBe(
      "judge_prompt_marker",
    );
    expect(thrown(() => parsePinned(`${text}\n${USER_MESSAGE_MARKER}\n`)).code).toBe("judge_prompt_marker");
  });

  it("needs {{query}} and {{answer}} exactly once each in the template", () => {
    const text = bytes.toString("utf8");
    for (const broken of [
      text.replace("{{query}}", "the query"),
      text.replace("{{answer}}", "{{answer}} {{answer}}"),
      `${text}\n{{query}}`,
    ]) {
      const error = thrown(() => parsePinned(broken));
      expect([error.kind, error.code]).toEqual(["usage", "judge_prompt_placeholder"]);
    }
    // In the system part a placeholder is just text: only the template is filled in.
    expect(parsePinned(`{{answer}} ${text}`).system.startsWith("{{answer}} ")).toBe(true);
  });

  it("needs every anchor of every dimension verbatim in the system prompt", () => {
    const text = bytes.toString("utf8").replace("addresses about half of the request", "addresses half");
    const error = thrown(() => parsePinned(text));
    expect(error.code).toBe("judge_prompt_anchor_missing");
    expect(error.message).toContain("completeness 3");
  });

  it("refuses a protocol whose judge would be shown the facts (this judge never is)", () => {
    const error = thrown(() => parsePinned(bytes.toString("utf8"), { ...protocol.judge, shows_facts: true }));
    expect(error.code).toBe("judge_shows_facts_unsupported");
  });
});
