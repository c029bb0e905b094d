/**
 * A bidi override or isolate in what an adapter reads (prompt, discover_query) is reported as a
 * warning with its line, never refused; the honest marks of right-to-left text are not.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { formatProblem } from "../../src/core/index.ts";
import { parseTaskSet } from "../../src/discover-call/index.ts";
import { runCli } from "../helpers/cli.ts";
import { join, useTempDir } from "../helpers/temp.ts";

const ADAPTER = fileURLToPath(new URL("./fixtures/adapter.mjs", import.meta.url));
const task = (id: string, prompt: string, query: string) =>
  JSON.stringify({
    id,
    prompt,
    discover_query: query,
    constraints: [{ id: "c", aliases: ["city"], value: "London" }],
  });

const TEXT = [
  task("plain", "Weather for London", "weather forecast"),
  task("override", "Weather for London", "weather \u202Etsacerof"),
  task("hebrew", "\u05DE\u05D6\u05D2 \u05D0\u05D5\u05D5\u05D9\u05E8 \u200Fלונדון", "weather forecast"),
  task("isolate", "Weather \u2067for\u2069 London", "weather forecast"),
].join("\n");

describe("bidi controls in a task set's queries", () => {
  const temp = useTempDir();
  it("are warnings with file:line: code:, and the tasks are still read", () => {
    const set = parseTaskSet(Buffer.from(TEXT), "t.jsonl");
    expect(set.tasks).toHaveLength(4);
    expect(set.warnings.map(formatProblem)).toEqual([
      "t.jsonl:2: query_bidi_control: task override: discover_query holds the bidi control U+202E at character 9: it can display in another order than the one sent",
      "t.jsonl:4: query_bidi_control: task isolate: prompt holds the bidi control U+2067 at character 9: it can display in another order than the one sent",
    ]);
  });

  it("are printed by discover-call run before it goes on", async () => {
    const dir = temp();
    const tasks = join(dir, "tasks.jsonl");
    writeFileSync(tasks, `${TEXT}\n`);
    const run = await runCli(
      [
        ...["discover-call", "run", "--model", "m", "--lane", "configured-model", "--tasks", tasks],
        ...["--adapter", process.execPath, "--adapter-arg", ADAPTER, "--adapter-revision", "a1"],
        ...["--toolkit-revision", "0123456789abcdef0123456789abcdef01234567"],
        // Nothing listens there: the run stops at its preflight, after the warnings.
        ...["--base-url", "http://127.0.0.1:9", "--out", join(dir, "out.jsonl")],
      ],
      { env: { QVERIS_API_KEY: "qv-key-0123456789" } },
    );
    expect(run.err).toContain(`warning: ${tasks}:2: query_bidi_control: task override:`);
    expect(run.err).toContain(`warning: ${tasks}:4: query_bidi_control: task isolate:`);
    expect(run.err).not.toContain("task hebrew");
    // The preflight's refusal (nothing listens), not a refusal of the task set.
    expect(run.code).toBe(2);
    expect(run.err).toContain("api_unavailable");
  });
});
