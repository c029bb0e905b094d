/**
 * Issue #16 item 11: a path the user types is the user's input, never a fabench bug. Walks every
 * command of the tree `main` builds and feeds each path-taking option and argument a missing
 * folder, a folder, an empty string and a symlink to a special file; none may end in exit 70.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import type { Command } from "commander";
import { beforeAll, describe, expect, it } from "vitest";
import { buildProgram } from "../../src/cli.ts";
import { runCli } from "../helpers/cli.ts";
import { join, useSuiteTempDir } from "../helpers/temp.ts";

const PATH_ARG = /<(file|files\.\.\.|dir|path|summary|runs\.\.\.|corpus|envelope)>|\[envelope\]/;

interface Target {
  readonly command: readonly string[];
  /** `--flag` for an option, or the index of a positional argument. */
  readonly slot: string | number;
}

function walk(command: Command, path: readonly string[] = []): Target[] {
  const own: Target[] = [];
  if (path.length > 0 && command.commands.length === 0) {
    for (const option of command.options)
      if (option.long && PATH_ARG.test(option.flags) && !option.hidden)
        own.push({ command: path, slot: option.long });
    command.registeredArguments.forEach((argument, i) => {
      const name = `<${argument.name()}${argument.variadic ? "..." : ""}>`;
      if (
        PATH_ARG.test(name) ||
        ["dir", "summary", "runs", "envelope", "corpus", "files"].includes(argument.name())
      )
        own.push({ command: path, slot: i });
    });
  }
  return [...own, ...command.commands.flatMap((c) => walk(c, [...path, c.name()]))];
}

/** Commands left out, and why: `demo` runs the whole pipeline per case (its one path is --out). */
const SKIPPED = new Set(["demo"]);

describe("no path a user types ends in exit 70", () => {
  const temp = useSuiteTempDir();
  const fixture: Record<string, string> = {};

  beforeAll(async () => {
    const dir = temp();
    fixture["run"] = join(dir, "r.jsonl");
    fixture["summary"] = join(dir, "s.json");
    fixture["envelope"] = join(dir, "answer.txt");
    fixture["conveyor"] = join(dir, "conveyor.json");
    const one = ["--task", "v4-single_property_value_unit_provenance-en-01"];
    expect((await runCli(["run", "--agent", "reference", ...one, "--out", fixture["run"]])).code).toBe(0);
    expect(
      (await runCli(["score", fixture["run"], "--out", fixture["summary"], "--allow-incomplete"])).code,
    ).toBe(0);
    writeFileSync(fixture["envelope"], "no envelope here\n");
    copyFileSync("manifests/conveyor.json", fixture["conveyor"]);
    // A command judge that rates every answer 4/4, and one judgments file it wrote.
    fixture["judge"] = join(dir, "judge.mjs");
    writeFileSync(
      fixture["judge"],
      `#!/usr/bin/env node\nprocess.stdin.resume();\nprocess.stdin.on("end", () => process.stdout.write(JSON.stringify({ text: JSON.stringify({ coherence: 4, completeness: 4, rationale: "ok" }) })));\n`,
    );
    chmodSync(fixture["judge"], 0o755);
    fixture["judgments"] = join(dir, "j.jsonl");
    const judged = await runCli(
      [
        "judge",
        "run",
        fixture["run"],
        "--judge",
        `command:${fixture["judge"]}`,
        "--out",
        fixture["judgments"],
      ],
      { env: { PATH: process.env["PATH"] } },
    );
    expect(judged.code).toBe(0);
    mkdirSync(join(dir, "a-folder"));
    if (existsSync("/dev/null")) symlinkSync("/dev/null", join(dir, "special.json"));
  }, 60_000);

  /** Valid arguments for each command, so the path under test is what the command meets first. */
  function baseArgv(command: readonly string[]): string[] | null {
    const key = command.join(" ");
    const quick = ["--datasets", "2", "--iterations", "10"];
    const table: Record<string, string[]> = {
      "plan generate": ["plan", "generate", "--out", join(temp(), "plan.json")],
      "corpus validate": ["corpus", "validate", "tasks/final-answer-corpus.json"],
      "corpus generate": ["corpus", "generate", "--check"],
      "corpus check": ["corpus", "check", "tasks/final-answer-corpus.json"],
      // Every file is read before the probes run, so a bad path ends it at once.
      "corpus sensitivity": ["corpus", "sensitivity"],
      "catalog build": ["catalog", "build", "--check"],
      "envelope schema": ["envelope", "schema"],
      "envelope score": [
        "envelope",
        "score",
        "--task",
        "v4-single_property_value_unit_provenance-en-01",
        fixture["envelope"] as string,
      ],
      "conditions freeze": ["conditions", "freeze", "--check"],
      "conditions show": ["conditions", "show", "--task", "v4-single_property_value_unit_provenance-en-01"],
      "conditions profile": ["conditions", "profile"],
      run: [
        "run",
        "--agent",
        "reference",
        "--task",
        "v4-single_property_value_unit_provenance-en-01",
        "--out",
        join(temp(), `run-${Math.random()}.jsonl`),
      ],
      "runs merge": ["runs", "merge", fixture["run"] as string, "--out", join(temp(), "merged.jsonl")],
      "runs dedupe": ["runs", "dedupe", fixture["run"] as string, "--out", join(temp(), "deduped.jsonl")],
      "conveyor status": ["conveyor", "status", "--conveyor", fixture["conveyor"] as string],
      "conveyor record": [
        "conveyor",
        "record",
        "#431",
        "--state",
        "failed",
        "--artifact",
        fixture["envelope"] as string,
        "--source-revision",
        "a".repeat(40),
        "--conveyor",
        fixture["conveyor"] as string,
      ],
      "pilot init": ["pilot", "init", join(temp(), `pilot-${Math.random()}`)],
      score: ["score", fixture["run"] as string, "--allow-incomplete", "--out", join(temp(), "s2.json")],
      gate: ["gate", fixture["summary"] as string],
      report: ["report", fixture["summary"] as string, "--out", join(temp(), "r.html")],
      compare: ["compare", fixture["summary"] as string, fixture["summary"] as string],
      ...Object.fromEntries(
        ["inspect", "csv"].map((format) => [
          `export ${format}`,
          [
            "export",
            format,
            fixture["run"] as string,
            "--summary",
            fixture["summary"] as string,
            "--out",
            join(temp(), `export-${Math.random()}.${format}`),
          ],
        ]),
      ),
      // No QVERIS_API_KEY reaches the sweep, so no request is ever sent: paths are checked first.
      "discover-call run": [
        "discover-call",
        "run",
        "--model",
        "m",
        "--lane",
        "configured-model",
        "--tasks",
        "tasks/discover-call/final-answer-v4.jsonl",
        "--adapter",
        "test/discover-call/fixtures/adapter.mjs",
        "--adapter-revision",
        "r1",
        "--toolkit-revision",
        "a".repeat(40),
        "--base-url",
        "http://127.0.0.1:9/api/v1",
        "--out",
        join(temp(), `dc-${Math.random()}.jsonl`),
      ],
      "discover-call score": [
        "discover-call",
        "score",
        "--tasks",
        "tasks/discover-call/final-answer-v4.jsonl",
        "--runs",
        fixture["run"] as string,
      ],
      "discover-call publish": [
        "discover-call",
        "publish",
        "--tasks",
        "tasks/discover-call/final-answer-v4.jsonl",
        "--runs",
        fixture["run"] as string,
        "--out-runs",
        join(temp(), "pub.jsonl"),
        "--out-summary",
        join(temp(), "pub.json"),
      ],
      "discover-call export": ["discover-call", "export", "--out", join(temp(), "export.jsonl")],
      "discover-call validate": [
        "discover-call",
        "validate",
        "--tasks",
        "tasks/discover-call/final-answer-v4.jsonl",
        "--runs",
        fixture["run"] as string,
        "--summary",
        fixture["summary"] as string,
      ],
      "judge run": [
        "judge",
        "run",
        fixture["run"] as string,
        "--judge",
        `command:${fixture["judge"]}`,
        "--out",
        join(temp(), `judgments-${Math.random()}.jsonl`),
      ],
      "judge agreement": [
        "judge",
        "agreement",
        fixture["judgments"] as string,
        fixture["judgments"] as string,
      ],
      "simulate coverage": ["simulate", "coverage", ...quick],
      power: ["power", "--summary", fixture["summary"] as string, ...quick, "--tasks-per-cell", "4"],
      // Every path is read before the server listens, so a bad one ends it at once (port 0: never a fixed port).
      serve: ["serve", "--port", "0"],
    };
    return table[key] ?? null;
  }

  const targets = walk(buildProgram({ out: () => undefined, err: () => undefined }, () => undefined)).filter(
    (t) => !SKIPPED.has(t.command.join(" ")),
  );

  it("knows every command it sweeps", () => {
    expect(targets.length).toBeGreaterThan(40);
    expect(targets.filter((t) => baseArgv(t.command) === null).map((t) => t.command.join(" "))).toEqual([]);
  });

  it.each(["missing folder", "a folder", "empty string", "symlink to a special file"])(
    "every path slot given %s exits 0-3, never 70",
    { timeout: 600_000 },
    async (kind) => {
      const value = {
        "missing folder": join(temp(), "no-such-folder", "x.json"),
        "a folder": join(temp(), "a-folder"),
        "empty string": "",
        "symlink to a special file": join(temp(), "special.json"),
      }[kind] as string;
      const bugs: string[] = [];
      for (const target of targets) {
        const base = baseArgv(target.command);
        if (base === null) continue; // the test above names it
        const argv = [...base];
        const positionals = argv
          .slice(target.command.length)
          .filter((a, i, all) => !a.startsWith("--") && !all[i - 1]?.startsWith("--"));
        if (typeof target.slot === "number") {
          const current = positionals[target.slot];
          if (current === undefined) argv.push(value);
          else argv[argv.indexOf(current, target.command.length)] = value;
        } else {
          const at = argv.indexOf(target.slot);
          if (at >= 0) argv[at + 1] = value;
          else argv.push(target.slot, value);
        }
        const result = await runCli(argv);
        if (result.code === 70 || /internal_error/.test(result.err))
          bugs.push(`${argv.join(" ")} → ${result.code}: ${result.err.split("\n")[0]}`);
      }
      expect(bugs).toEqual([]);
    },
  );
});
