/**
 * Issue #35 item 4, one vocabulary: the flag inventory has one name per concept (the table below),
 * `--pilot` is on every command that reads a protocol, plan, corpus or manifest, `--runs` on every
 * command that reads run files, the old spellings still work with their warning line, `--pilot`'s
 * defaults yield to a flag the user gives, and `gate`/`report` find the protocol a summary names.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { Command, type Option } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram } from "../../src/cli.ts";
import {
  bundledOutOption,
  DEFAULTS,
  manifestOption,
  pilotOption,
  pilotOutput,
  resolvePilot,
} from "../../src/cli/options.ts";
import { summaryProtocolHead } from "../../src/cli/summary-protocol.ts";
import { createRouter } from "../../src/conditions/routing/routers.ts";
import { runCli } from "../helpers/cli.ts";
import { join, useTempDir } from "../helpers/temp.ts";

/** Concept → its one visible flag, and the names it must never be shown under (#35 decisions). */
const CONCEPTS: Record<string, { flag: string; never: readonly string[] }> = {
  "what a command writes": { flag: "--out", never: ["--output", "--out-dir", "--freeze-out", "--out-file"] },
  "a pilot folder": { flag: "--pilot", never: ["--pilot-dir"] },
  "run files read": { flag: "--runs", never: ["--run", "--run-file", "--run-files", "--input"] },
  "the frozen condition manifest": {
    flag: "--manifest",
    never: ["--conditions-manifest", "--condition-manifest"],
  },
  "catalog sizes (one, or a comma list)": {
    flag: "--catalog-size",
    never: ["--catalog-sizes", "--sizes", "--catalog"],
  },
  "conditions (one, or a comma list)": { flag: "--condition", never: ["--conditions"] },
  // (discover-call's --tasks names a task set FILE, another concept: it stays.)
  "task ids (one, or a glob)": { flag: "--task", never: ["--task-id", "--task-ids"] },
  "JSON for scripts": { flag: "--json", never: ["--format-json", "--as-json"] },
  "the folder of catalogs": { flag: "--catalogs", never: ["--catalog-dir", "--catalogs-dir"] },
};

/** Commands that read a protocol, plan, corpus or manifest yet take no `--pilot`, and why. */
const NO_PILOT: Record<string, string> = {
  "pilot init": "it makes a pilot from the bundled files",
};

/** Every command whose input is run files of `fabench run`. */
const READS_RUNS = ["score", "judge run", "runs merge", "runs dedupe", "report", "power"];

interface Entry {
  readonly path: string;
  readonly command: Command;
}

function walk(command: Command, path: readonly string[] = []): Entry[] {
  return [
    { path: path.join(" "), command },
    ...command.commands.flatMap((c) => walk(c, [...path, c.name()])),
  ];
}

const program = buildProgram({ out: () => undefined, err: () => undefined }, () => undefined);
const LEAVES = walk(program).filter((e) => e.command.commands.length === 0 && e.path !== "");
const shown = (command: Command) => command.options.filter((o: Option) => !o.hidden).map((o) => o.long);

describe("the flag inventory has one name per concept (#35)", () => {
  it("shows each concept under its one flag, never under another name", () => {
    const visible = new Set(LEAVES.flatMap((e) => shown(e.command)));
    for (const [concept, { flag, never }] of Object.entries(CONCEPTS)) {
      expect([concept, visible.has(flag)]).toEqual([concept, true]);
      expect([concept, never.filter((name) => visible.has(name))]).toEqual([concept, []]);
    }
  });

  it("has --pilot on every command that reads a protocol, plan, corpus or manifest", () => {
    const reads = ["--protocol", "--plan", "--corpus", "--manifest"];
    const missing = LEAVES.filter((e) => !(e.path in NO_PILOT))
      .filter((e) => shown(e.command).some((flag) => reads.includes(flag ?? "")))
      .filter((e) => !shown(e.command).includes("--pilot"))
      .map((e) => e.path);
    expect(missing).toEqual([]);
    // And on the corpus commands, whose corpus is their argument.
    for (const path of ["corpus validate", "corpus check", "corpus sensitivity", "conditions show", "serve"])
      expect(shown(LEAVES.find((e) => e.path === path)?.command ?? new Command())).toContain("--pilot");
  });

  it("has --runs on every command that reads run files", () => {
    for (const path of READS_RUNS)
      expect([path, shown(LEAVES.find((e) => e.path === path)?.command ?? new Command())]).toEqual([
        path,
        expect.arrayContaining(["--runs"]),
      ]);
  });
});

describe("--pilot sets defaults; a flag the user gives wins (#35)", () => {
  const temp = useTempDir();

  function parsed(argv: string[]): Command {
    const command = new Command("x")
      .addOption(manifestOption())
      .addOption(pilotOption())
      .exitOverride()
      .action(() => undefined);
    command.parse(argv, { from: "user" });
    resolvePilot(command);
    return command;
  }

  it("gives the pilot's manifest unless --manifest is given", () => {
    const pilot = join(temp(), "pilot");
    mkdirSync(pilot);
    writeFileSync(join(pilot, "pilot.json"), "{}\n");
    expect(parsed(["--pilot", pilot]).getOptionValue("manifest")).toBe(
      join(pilot, "condition-manifest.json"),
    );
    expect(parsed(["--pilot", pilot, "--manifest", "other.json"]).getOptionValue("manifest")).toBe(
      "other.json",
    );
    expect(() => parsed(["--pilot", temp()])).toThrow(/not a pilot folder/);
  });

  it("makes an --out that writes a pilot file write the pilot's (conditions freeze --pilot)", () => {
    const pilot = join(temp(), "pilot");
    mkdirSync(pilot);
    writeFileSync(join(pilot, "pilot.json"), "{}\n");
    const freeze = (argv: string[]) => {
      const command = new Command("freeze")
        .addOption(pilotOutput(bundledOutOption("manifest to write", DEFAULTS.conditionManifest), "manifest"))
        .addOption(pilotOption())
        .exitOverride()
        .action(() => undefined);
      command.parse(argv, { from: "user" });
      resolvePilot(command);
      return command.getOptionValue("out") as string;
    };
    expect(freeze(["--pilot", pilot])).toBe(join(pilot, "condition-manifest.json"));
    expect(freeze(["--pilot", pilot, "--out", "second-router.json"])).toBe("second-router.json");
    expect(freeze([])).toBe(DEFAULTS.conditionManifest); // before the bundled defaults resolve it
  });
});

describe("the old spellings still work, with one warning line (#35)", () => {
  const temp = useTempDir();
  const warnings = (err: string) => err.split("\n").filter((l) => l.startsWith("warning:"));

  it("discover-call run, score and publish take --output, --output-runs and --output-summary", async () => {
    const missing = join(temp(), "missing.jsonl");
    // The required outputs, given only under their old names, are not reported missing; the
    // command goes on to the missing task set.
    const run = await runCli([
      ...["discover-call", "run", "--model", "m", "--lane", "configured-model", "--tasks", missing],
      ...["--adapter", "./a.mjs", "--adapter-revision", "r", "--output", join(temp(), "raw.jsonl")],
    ]);
    expect(run.code).toBe(2);
    expect(warnings(run.err)).toEqual(["warning: --output is deprecated; use --out"]);
    expect(run.err).not.toContain("required option");
    const publish = await runCli([
      ...["discover-call", "publish", "--tasks", missing, "--runs", missing],
      ...["--output-runs", join(temp(), "p.jsonl"), "--output-summary", join(temp(), "s.json")],
    ]);
    expect(publish.code).toBe(2);
    expect(warnings(publish.err)).toEqual([
      "warning: --output-runs is deprecated; use --out-runs",
      "warning: --output-summary is deprecated; use --out-summary",
    ]);
    expect(publish.err).not.toContain("required option");
    const score = await runCli([
      "discover-call",
      "score",
      "--tasks",
      missing,
      "--runs",
      missing,
      "--output",
      "x",
    ]);
    expect(warnings(score.err)).toEqual(["warning: --output is deprecated; use --out"]);
  });

  it("corpus validate --freeze-out is --out", async () => {
    const out = join(temp(), "freeze.json");
    const old = await runCli(["corpus", "validate", "tasks/final-answer-corpus.json", "--freeze-out", out]);
    expect([old.code, warnings(old.err)]).toEqual([0, ["warning: --freeze-out is deprecated; use --out"]]);
    const canonical = await runCli(["corpus", "validate", "--out", join(temp(), "again.json")]);
    expect([canonical.code, canonical.err]).toEqual([0, ""]);
  });

  it("run --conditions, --catalog-sizes and --tasks are --condition, --catalog-size and --task", {
    timeout: 120_000,
  }, async () => {
    const estimate = ["run", "--agent", "reference", "--estimate", "--json"];
    const canonical = await runCli([
      ...estimate,
      ...["--task", "v4-*-en-01", "--condition", "FULL,SR-5", "--catalog-size", "100"],
    ]);
    const old = await runCli([
      ...estimate,
      ...["--tasks", "v4-*-en-01", "--conditions", "FULL,SR-5", "--catalog-sizes", "100"],
    ]);
    expect([canonical.code, old.code]).toEqual([0, 0]);
    expect(old.out).toBe(canonical.out);
    // Six tasks match (one per stratum) × two conditions × one catalog size.
    expect(JSON.parse(canonical.out).episodes).toBe(6 * 2 * 1);
    expect(warnings(old.err)).toEqual([
      "warning: --conditions is deprecated; use --condition",
      "warning: --catalog-sizes is deprecated; use --catalog-size",
      "warning: --tasks is deprecated; use --task",
    ]);
  });

  it("--router takes an http:// or https:// URL as written; http:URL is the same router, with a warning", async () => {
    for (const url of ["http://127.0.0.1:9/rank", "https://example.org/rank"]) {
      expect(createRouter(url).id).toBe(`http:${url}`);
      expect(createRouter(`http:${url}`).id).toBe(`http:${url}`);
    }
    expect(() => createRouter("ftp://example.org")).toThrow(/unknown|--router takes/);
    const freeze = [
      ...["conditions", "freeze", "--catalogs", join(temp(), "no-catalogs"), "--out", join(temp(), "m.json")],
    ];
    const old = await runCli([...freeze, "--router", "http:http://127.0.0.1:9/rank"]);
    expect(warnings(old.err)).toEqual([
      "warning: --router http:URL is deprecated; use --router http://127.0.0.1:9/rank",
    ]);
    const plain = await runCli([...freeze, "--router", "http://127.0.0.1:9/rank"]);
    expect(warnings(plain.err)).toEqual([]);
    expect(plain.err).not.toContain("unknown_router");
  });
});

describe("run files by argument or by --runs (#35)", () => {
  const temp = useTempDir();

  it("score and runs dedupe read the same files either way; none, or two for dedupe, is a usage error", {
    timeout: 180_000,
  }, async () => {
    const run = join(temp(), "r.jsonl");
    const pick = ["--task", "v4-*-en-01", "--condition", "FULL", "--catalog-size", "100"];
    expect((await runCli(["run", "--agent", "reference", ...pick, "--out", run])).code).toBe(0);
    const read = (path: string) => readFileSync(path, "utf8");
    const scored = (name: string) => join(temp(), name);
    const byArgument = await runCli([
      "score",
      run,
      "--out",
      scored("a.json"),
      "--allow-incomplete",
      "--json",
    ]);
    const byFlag = await runCli([
      "score",
      "--runs",
      run,
      "--out",
      scored("b.json"),
      "--allow-incomplete",
      "--json",
    ]);
    expect([byArgument.code, byFlag.code]).toEqual([0, 0]);
    expect(JSON.parse(byFlag.out).summary_sha256).toBe(JSON.parse(byArgument.out).summary_sha256);
    expect((await runCli(["runs", "dedupe", "--runs", run, "--out", scored("d.jsonl")])).code).toBe(0);
    expect(read(scored("d.jsonl"))).toBe(read(run));
    const none = await runCli(["score", "--out", scored("c.json")]);
    expect([none.code, none.err]).toEqual([
      2,
      "no_runs: give at least one run file (as an argument or with --runs FILE)\n",
    ]);
    const two = await runCli(["runs", "dedupe", run, "--runs", run, "--out", scored("e.jsonl")]);
    expect([two.code, two.err]).toEqual([2, "one_run_file: runs dedupe reads one run file, not 2\n"]);
  });
});

describe("gate and report take the protocol a summary names (#35)", () => {
  it("reads protocol_file and protocol_sha256 from a summary's head", () => {
    const sha = "a".repeat(64);
    const head = `{\n  "format": "fabench-summary/v4",\n  "protocol_sha256": "${sha}",\n  "preregistered": false,\n  "protocol_file": "../pilot/preregistration.json",\n  "run": {\n    "protocol_file": "nested, not read"`;
    expect(summaryProtocolHead(head)).toEqual({ file: "../pilot/preregistration.json", sha256: sha });
    expect(summaryProtocolHead(head.replace(/ {2}"protocol_file".*\n/, ""))).toBeNull();
    expect(summaryProtocolHead(`{\n  "protocol_file": "p.json"\n}`)).toBeNull(); // no hash to check it by
  });
});
