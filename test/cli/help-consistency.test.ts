/**
 * Issue #15 item 17: one flag name per concept. Walks the whole command tree (built as `main`
 * builds it) and every command's `--help`, and holds each flag to one meaning, each default to one
 * way of writing it, each required option to being marked, and each deprecated name to being a
 * hidden alias that still works.
 */
import { existsSync, readFileSync } from "node:fs";
import type { Command, Option } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram } from "../../src/cli.ts";
import { runCli } from "../helpers/cli.ts";
import { join, useTempDir } from "../helpers/temp.ts";

/** Old flag name → the canonical one; the old name keeps working, hidden, with a warning. */
const DEPRECATED: Record<string, string> = {
  "--conditions-manifest": "--manifest",
  "--out-dir": "--catalogs",
  "--sizes": "--catalog-size",
  "--catalog": "--catalog-size",
  // #35: one vocabulary.
  "--catalog-sizes": "--catalog-size",
  "--conditions": "--condition",
  "--freeze-out": "--out",
  "--output": "--out",
  "--output-runs": "--out-runs",
  "--output-summary": "--out-summary",
};

/**
 * Flags whose meaning is the command's own by design, each with what it is in each command. Every
 * other flag means one thing everywhere: the same argument and the same description, before any
 * trailing `(…)` note saying what it is for in one command.
 */
const CONTEXTUAL: Record<string, string> = {
  "--out": "what the command writes",
  "--check": "what the command compares instead of writing",
  "--seed":
    "run: the provider's sampling seed; simulate coverage and power: the simulation's seed; judge run: the order episodes are judged in",
  "--trials": "run: the trials to run; power: the trial counts whose power it estimates",
  "--runs":
    "score, judge run, runs merge|dedupe: the run files it reads; report: run files whose answers it shows; power: the pilot run files; discover-call: the record file",
  "--catalog-size":
    "conditions show and serve: the one catalog size; run and catalog build: a comma list of sizes (#35)",
  "--condition": "run: a comma list of the conditions to run; power: the deployable condition it sizes",
  "--task": "run: a glob of task ids; conditions show and envelope score: one task id",
  "--tasks": "discover-call: the task-set file (run's old spelling of --task, hidden)",
  "--summary": "simulate: the pilot summary; discover-call validate: the summary it checks",
  "--concurrency": "run and judge run: episodes in flight; discover-call run: trials in flight",
  "--base-url":
    "run and judge run: the model provider's URL; discover-call run: the Discover → Call API's URL",
  "--pass-env":
    "run and judge run: a variable a command agent may see; discover-call run: a variable an adapter executable may see",
  "--tasks-per-cell":
    "simulate coverage: the simulated design's tasks per cell; power: the designs whose power it estimates",
};

interface Entry {
  readonly path: readonly string[];
  readonly command: Command;
}

function walk(command: Command, path: readonly string[] = []): Entry[] {
  return [{ path, command }, ...command.commands.flatMap((c) => walk(c, [...path, c.name()]))];
}

const program = buildProgram({ out: () => undefined, err: () => undefined }, () => undefined);
const ENTRIES = walk(program);
const visible = (command: Command) => command.options.filter((o) => !o.hidden);
const OPTIONS = ENTRIES.flatMap(({ path, command }) =>
  visible(command).map((option) => ({ where: path.join(" "), command, option })),
);
const long = (o: Option) => o.long ?? o.flags;
/** The description without its trailing `(…)` notes: what the flag means everywhere. */
const meaning = (description: string) => description.replace(/(?: \([^()]*\))+$/, "");
const words = (text: string) => text.replace(/\s+/g, " ");

describe("fabench --help: one flag name per concept (#15 item 17)", () => {
  it("walks every command, and every command's --help exits 0", async () => {
    const paths = ENTRIES.map((e) => e.path.join(" "));
    for (const path of ["", "run", "conditions show", "catalog build", "simulate coverage", "power"])
      expect(paths).toContain(path);
    for (const { path } of ENTRIES) {
      const help = await runCli([...path, "--help"]);
      expect([path.join(" "), help.code, help.err]).toEqual([path.join(" "), 0, ""]);
      expect(help.out).toContain(`Usage: fabench${path.length > 0 ? ` ${path.join(" ")}` : ""}`);
    }
  });

  it("gives each long flag one argument and one meaning across commands", () => {
    const byFlag = new Map<string, { where: string; flags: string; meaning: string }[]>();
    for (const { where, option } of OPTIONS) {
      const seen = byFlag.get(long(option)) ?? [];
      seen.push({ where, flags: option.flags, meaning: meaning(option.description) });
      byFlag.set(long(option), seen);
    }
    const differing = [...byFlag]
      .filter(([flag, uses]) => !(flag in CONTEXTUAL) && uses.length > 1)
      .filter(([, uses]) => new Set(uses.map((u) => `${u.flags} — ${u.meaning}`)).size > 1)
      .map(([flag, uses]) => ({ flag, uses }));
    expect(differing).toEqual([]);
    // The allow-list names only flags that are used, in more than one command.
    for (const flag of Object.keys(CONTEXTUAL)) expect(byFlag.get(flag)?.length ?? 0).toBeGreaterThan(1);
  });

  it("shows no deprecated name, and no two names of one concept", async () => {
    const shown = new Set(OPTIONS.map(({ option }) => long(option)));
    expect([...shown].filter((flag) => flag in DEPRECATED)).toEqual([]);
    for (const [old, canonical] of Object.entries(DEPRECATED))
      expect([old, canonical].filter((flag) => shown.has(flag))).toEqual([canonical]);
    // Nor does any help text mention one.
    const token = (flag: string) => new RegExp(`(?<![\\w-])${flag}(?![\\w-])`);
    for (const { path } of ENTRIES) {
      const { out } = await runCli([...path, "--help"]);
      for (const old of Object.keys(DEPRECATED))
        expect(token(old).test(out), `${path} --help: ${old}`).toBe(false);
    }
  });

  it("keeps each deprecated name as a hidden alias of an option the same command shows", () => {
    const aliases = ENTRIES.flatMap(({ path, command }) =>
      command.options
        .filter((o) => long(o) in DEPRECATED)
        .map((o) => ({ where: path.join(" "), command, option: o })),
    );
    expect(aliases.map((a) => `${a.where} ${long(a.option)}`).sort()).toEqual([
      "catalog build --catalog-sizes",
      "catalog build --out-dir",
      "catalog build --sizes",
      "conditions show --catalog",
      "corpus validate --freeze-out",
      "discover-call publish --output-runs",
      "discover-call publish --output-summary",
      "discover-call run --output",
      "discover-call score --output",
      "run --catalog-sizes",
      "run --conditions",
      "run --conditions-manifest",
    ]);
    for (const { command, option } of aliases) {
      expect(option.hidden).toBe(true);
      const canonical = visible(command).find((o) => o.long === DEPRECATED[long(option)]);
      expect(canonical).toBeDefined();
      // The same argument after the flag.
      expect(option.flags.replace(long(option), "")).toBe(canonical?.flags.replace(canonical.long ?? "", ""));
    }
  });

  it("writes defaults one way: commander's (default: …) from the value, or the same words when computed", () => {
    const described = [
      ...OPTIONS.map(({ where, option }) => ({
        where,
        name: long(option),
        description: option.description,
        defaultValue: option.defaultValue as unknown,
      })),
      ...ENTRIES.flatMap(({ path, command }) =>
        command.registeredArguments.map((a) => ({
          where: path.join(" "),
          name: a.name(),
          description: a.description,
          defaultValue: a.defaultValue as unknown,
        })),
      ),
    ];
    const adHoc = described.filter(({ description, defaultValue }) => {
      const mentions = description.match(/default/gi)?.length ?? 0;
      if (mentions === 0) return false;
      // A default value is printed by commander; the description must not say it again.
      if (defaultValue !== undefined) return true;
      return mentions > 1 || !/ \(default: [^()]+\)$/.test(description);
    });
    expect(adHoc.map((d) => `${d.where} ${d.name}: ${d.description}`)).toEqual([]);
  });

  it("marks every required option (required) in --help, and no other", async () => {
    for (const { path, command } of ENTRIES) {
      const help = command.createHelp();
      const { out } = await runCli([...path, "--help"]);
      for (const option of visible(command)) {
        const text = help.optionDescription(option);
        expect([path.join(" "), long(option), text.endsWith("(required)")]).toEqual([
          path.join(" "),
          long(option),
          option.mandatory,
        ]);
        expect(words(out)).toContain(words(`${option.flags} ${text}`));
      }
    }
    const run = await runCli(["run", "--help"]);
    expect(words(run.out)).toContain("openai-compatible:MODEL or command:PATH (required) --out <file>");
  });

  it("documents simulate coverage --repeats", () => {
    const repeats = OPTIONS.find(
      ({ where, option }) => where === "simulate coverage" && long(option) === "--repeats",
    );
    expect(repeats?.option.description).toMatch(/averaged into each simulated task's delta/);
    expect(repeats?.option.description).toMatch(/\(default: the protocol's catalog sizes × 3 trials\)$/);
  });
});

describe("deprecated flag names still work, with one warning line (#15 item 17)", () => {
  const temp = useTempDir();
  const warnings = (err: string) => err.split("\n").filter((l) => l.startsWith("warning:"));
  const estimate = ["run", "--agent", "reference", "--estimate", "--task", "v4-*-en-01", "--json"];

  // Five runs that each load and check the whole world: generous on a loaded machine.
  it("run --conditions-manifest is --manifest", { timeout: 180_000 }, async () => {
    const manifest = "manifests/condition-manifest.json";
    const canonical = await runCli([...estimate, "--manifest", manifest]);
    const old = await runCli([...estimate, "--conditions-manifest", manifest]);
    expect([canonical.code, old.code]).toEqual([0, 0]);
    expect(old.out).toBe(canonical.out);
    expect(warnings(canonical.err)).toEqual([]);
    expect(warnings(old.err)).toEqual(["warning: --conditions-manifest is deprecated; use --manifest"]);
    // The alias's value is the one used, not the default.
    const missing = join(temp(), "missing.json");
    const gone = await runCli([...estimate, "--conditions-manifest", missing]);
    expect(gone.code).toBe(2);
    expect(gone.err).toContain(missing);
    // Both names, same value: fine; different values: a usage error.
    expect(
      (await runCli([...estimate, "--manifest", manifest, "--conditions-manifest", manifest])).code,
    ).toBe(0);
    const both = await runCli([...estimate, "--manifest", manifest, "--conditions-manifest", missing]);
    expect(both.code).toBe(2);
    expect(both.err).toContain("conflicting_options");
  });

  it("catalog build --sizes and --out-dir are --catalog-size and --catalogs", async () => {
    const dir = join(temp(), "catalogs");
    // Sizes of at least the 55 base endpoints.
    const old = await runCli(["catalog", "build", "--sizes", "60,80", "--out-dir", dir]);
    expect(old.code).toBe(0);
    expect(warnings(old.err)).toEqual([
      "warning: --sizes is deprecated; use --catalog-size",
      "warning: --out-dir is deprecated; use --catalogs",
    ]);
    expect(existsSync(join(dir, "60.json")) && existsSync(join(dir, "80.json"))).toBe(true);
    const check = await runCli([
      "catalog",
      "build",
      "--catalog-size",
      "60,80",
      "--catalogs",
      dir,
      "--check",
    ]);
    expect([check.code, warnings(check.err)]).toEqual([0, []]);
    expect(JSON.parse(readFileSync(join(dir, "60.json"), "utf8")).endpoint_count).toBe(60);
    const both = await runCli(["catalog", "build", "--catalogs", dir, "--out-dir", temp(), "--check"]);
    expect(both.code).toBe(2);
    expect(both.err).toContain("conflicting_options");
  });

  it("conditions show --catalog is --catalog-size", async () => {
    const show = ["conditions", "show", "--task", "v4-multi_source_comparison-de-02"];
    const canonical = await runCli([...show, "--catalog-size", "250"]);
    const old = await runCli([...show, "--catalog", "250"]);
    expect([canonical.code, old.code]).toEqual([0, 0]);
    expect(old.out).toBe(canonical.out);
    expect(old.out).toContain("stage 1: all 250 routes");
    expect(warnings(old.err)).toEqual(["warning: --catalog is deprecated; use --catalog-size"]);
    expect((await runCli([...show, "--catalog", "250", "--catalog-size", "100"])).code).toBe(2);
  });
});

describe("power's progress counts designs (#15 item 17)", () => {
  const temp = useTempDir();

  it("says designs, not episodes", async () => {
    const run = join(temp(), "pilot.jsonl");
    const pilot = ["--task", "v4-*-en-01", "--catalog-size", "100", "--condition", "FULL,SR-5"];
    expect((await runCli(["run", "--agent", "reference", ...pilot, "--out", run])).code).toBe(0);
    const design = ["--datasets", "2", "--iterations", "20", "--tasks-per-cell", "4", "--json"];
    const power = await runCli(["power", "--runs", run, ...design]);
    expect(power.code).toBe(0);
    // One tasks-per-cell × one trial count × two true deltas.
    expect(power.err).toMatch(/^power: 2\/2 designs, /m);
    expect(power.err).not.toContain("episodes");
    // One vocabulary (#15 item 16): metrics by their names; a gate check's old name still works, with a warning.
    const byCheck = await runCli(["power", "--runs", run, ...design, "--metric", "fact_recall"]);
    expect(byCheck.code).toBe(0);
    expect(byCheck.err.split("\n")[0]).toBe(
      "warning: fact_recall is a gate check's name; its metric is required_fact_recall — use that name",
    );
    expect(JSON.parse(byCheck.out).metric).toBe("required_fact_recall");
    expect(JSON.parse(byCheck.out).rows).toEqual(JSON.parse(power.out).rows);
    const unknown = await runCli(["power", "--runs", run, ...design, "--metric", "recall"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(
      /^unknown_metric: --metric recall is not a metric of the protocol; one of required_fact_recall, /,
    );
  });
});
