/**
 * The README's worked example runs as written: its command lines, read out of the README, run one
 * after another from a fresh folder (beside the clone's `examples/`, as from the root of a clone),
 * each with the exit code the README gives it, and every line the README shows under them is one
 * that `score` or `gate` printed. Slow: it freezes a command router (288 calls) and replays and
 * scores the whole matrix.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, symlinkSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { fabenchCommandLines } from "./helpers/docs-check.ts";
import { join, useTempDir } from "./helpers/temp.ts";

const BIN = resolve("bin/fabench.mjs");
const HEADING = "## A worked example: your router, end to end";

/** The section's first two fenced blocks: the commands, then what they printed. */
function workedExample(): { commands: string[][]; shown: string[] } {
  const readme = readFileSync("README.md", "utf8");
  const section = readme.slice(readme.indexOf(HEADING), readme.indexOf("\n## ", readme.indexOf(HEADING) + 1));
  const blocks = [...section.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1] as string);
  const commands = fabenchCommandLines(`\`\`\`sh\n${blocks[0] ?? ""}\`\`\`\n`).map((c) => c.args);
  const shown = (blocks[1] ?? "").split("\n").filter((line) => line !== "" && line !== "...");
  return { commands, shown };
}

describe("the README's worked example", () => {
  const temp = useTempDir();

  it("runs as written: pilot, freeze with the example router, run, score, gate (exit 1), report, export", {
    timeout: 600_000,
  }, () => {
    const { commands, shown } = workedExample();
    expect(commands.map((args) => args.slice(0, 2).join(" "))).toEqual([
      "pilot init",
      "conditions freeze",
      "run --pilot",
      "score --pilot",
      // The summary names its pilot (#35): gate and report need no --pilot.
      "gate results/my-router.summary.json",
      "report results/my-router.summary.json",
      // Step 7: the same run for Inspect AI's log viewer and for a dataframe (#35).
      "export inspect",
      "export csv",
    ]);
    // Step 2 is one flag for the pilot and one for the router (#35).
    expect(commands[1]).toEqual([
      "conditions",
      "freeze",
      "--pilot",
      "pilot",
      "--router",
      "command:./examples/routers/word-overlap.mjs",
    ]);
    expect(shown.length).toBeGreaterThan(8);
    const dir = temp();
    symlinkSync(resolve("examples"), join(dir, "examples"));
    let printed = "";
    for (const args of commands) {
      const run = spawnSync(process.execPath, [BIN, ...args], {
        cwd: dir,
        encoding: "utf8",
        env: { PATH: process.env["PATH"] ?? "" },
      });
      // The gate's verdict on this toy router is FAIL, as the README says; every other step succeeds.
      expect(run.status, `fabench ${args.join(" ")}: ${run.stderr}`).toBe(args[0] === "gate" ? 1 : 0);
      printed += run.stdout;
    }
    const lines = printed.split("\n");
    expect(shown.filter((line) => !lines.includes(line))).toEqual([]);
    for (const file of ["my-router.report.html", "my-router.inspect.json", "my-router.csv"])
      expect(existsSync(join(dir, "results", file)), file).toBe(true);
  });
});
