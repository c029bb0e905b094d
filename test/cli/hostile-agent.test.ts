/**
 * Issue #33 item 1: a command agent whose tool-call arguments nest 100,000 deep made `run` exit 70
 * (a stack overflow in the token counter), write no record, and crash again on every --resume.
 * Now each such turn is an episode error with a code, the run writes every record, and a resume
 * that retries them meets the same coded error, never a crash. An agent asking for 10,000 calls a
 * turn gets one run and the rest counted.
 */
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { satisfiedConveyor } from "../helpers/conveyor.ts";
import { join, useTempDir } from "../helpers/temp.ts";

/** 6 tasks × 1 catalog size × 1 condition: 6 episodes. */
const SMALL = ["--task", "v4-*-en-01", "--catalog-size", "100", "--condition", "FULL", "--breaker", "0"];
const env = { PATH: process.env["PATH"] };

type Rec = { status: string; error_code: string | null; turns: Array<Record<string, unknown>> };
const read = (path: string): Rec[] =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Rec);

function agent(dir: string, body: string): string {
  const path = join(dir, "agent.mjs");
  writeFileSync(
    path,
    `#!/usr/bin/env node\nlet s = "";\nprocess.stdin.on("data", (d) => (s += d)).on("end", () => {\n  const turns = JSON.parse(s).messages.filter((m) => m.role === "assistant").length;\n${body}\n});\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

describe("fabench run with a hostile command agent", () => {
  const temp = useTempDir();

  it("records arguments nested 100,000 deep as command_bad_response episodes, and resumes without a crash", {
    timeout: 120_000,
  }, async () => {
    const dir = temp();
    const conveyor = await satisfiedConveyor(dir);
    const path = agent(
      dir,
      '  const d = 100000;\n  process.stdout.write(`{"text":"","tool_calls":[{"name":"papers__search","arguments":{"q":${"[".repeat(d)}1${"]".repeat(d)}}}]}`);',
    );
    const out = join(dir, "run.jsonl");
    const args = ["run", "--agent", `command:${path}`, "--conveyor", conveyor, "--out", out, ...SMALL];
    const first = await runCli(args, { env });
    expect(first.code).toBe(1); // every episode an infrastructure error: nothing measured
    expect(read(out).map((r) => [r.status, r.error_code])).toEqual(
      Array(6).fill(["error", "command_bad_response"]),
    );
    const again = await runCli([...args, "--resume", "--retry-errors"], { env });
    expect(again.code).toBe(1);
    expect(again.err).not.toContain("internal_error");
    expect(read(out).filter((r) => r.error_code === "command_bad_response").length).toBeGreaterThanOrEqual(6);
  });

  it("runs one of 10,000 calls a turn and counts the rest in refused_tool_calls", {
    timeout: 120_000,
  }, async () => {
    const dir = temp();
    const conveyor = await satisfiedConveyor(dir);
    const path = agent(
      dir,
      [
        '  if (turns >= 1) return process.stdout.write(JSON.stringify({ text: JSON.stringify({ answer: "a", facts: [], sources: [] }) }));',
        '  const calls = Array.from({ length: 10000 }, (_, i) => ({ name: "papers__search", arguments: { query: "q" + i } }));',
        '  process.stdout.write(JSON.stringify({ text: "", tool_calls: calls }));',
      ].join("\n"),
    );
    const out = join(dir, "run.jsonl");
    const run = await runCli(
      ["run", "--agent", `command:${path}`, "--conveyor", conveyor, "--out", out, ...SMALL],
      {
        env,
      },
    );
    expect(run.code).toBe(0);
    const records = read(out);
    expect(records).toHaveLength(6);
    for (const record of records) {
      expect(record.status).toBe("completed");
      expect(
        record.turns.map((t) => [(t["tool_calls"] as unknown[]).length, t["refused_tool_calls"]]),
      ).toEqual([
        [1, 9_999],
        [0, 0],
      ]);
    }
  });
});
