/** Shared option parsing and defaults for every command group. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { PILOT_FILES } from "../authoring/pilot-files.ts";
import { type Command, Option } from "commander";
import type { CliIo } from "../commands/shell/io.ts";
import { bundledPath, isBundledName, usageError } from "../core/index.ts";
import { bundledDefault, type DefaultRole, noteAlias } from "./bundled-defaults.ts";

export const DEFAULTS = {
  protocol: "manifests/preregistration.json",
  plan: "manifests/authoring-plan.json",
  catalogs: "tasks/catalogs",
  corpus: "tasks/final-answer-corpus.json",
  authored: "tasks/authored",
  conditionManifest: "manifests/condition-manifest.json",
  conveyor: "manifests/conveyor.json",
  discoverCallTasks: "tasks/discover-call/final-answer-v4.jsonl",
} as const;

/** What a registrar needs: where output goes, and how an action reports its exit code. */
export interface Registrar {
  readonly io: CliIo;
  readonly setExit: (code: number) => void;
  /** Runs another fabench command line and returns its exit code (for `demo`). */
  readonly dispatch: (argv: readonly string[]) => Promise<number>;
}

export function positiveInt(flag: string) {
  return (text: string): number => {
    if (!/^[1-9]\d*$/.test(text))
      throw usageError("bad_number", `${flag} takes a positive whole number, not ${text}`);
    return Number(text);
  };
}

export function nonNegativeInt(flag: string) {
  return (text: string): number => {
    if (!/^\d+$/.test(text)) throw usageError("bad_number", `${flag} takes a whole number ≥ 0, not ${text}`);
    return Number(text);
  };
}

export function nonNegative(flag: string) {
  return (text: string): number => {
    const value = Number(text);
    if (text.trim() === "" || !Number.isFinite(value) || value < 0)
      throw usageError("bad_number", `${flag} takes a number ≥ 0, not ${text}`);
    return value;
  };
}

export function list(text: string): string[] {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

/** For repeatable options. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** A group without a subcommand is an incomplete command line: show its help on stderr, exit 2. */
export function group(parent: Command, name: string, description: string): Command {
  const command = parent.command(name).description(description);
  command.action(() => command.help({ error: true }));
  return command;
}

/** A comma-separated list of catalog sizes: at least one, each a positive whole number. */
export function catalogSizeList(flag: string) {
  return (text: string): number[] => {
    const sizes = list(text).map(positiveInt(flag));
    if (sizes.length === 0) throw usageError("bad_number", `${flag} takes comma-separated catalog sizes`);
    return sizes;
  };
}

/** ` (note)` after a shared option's description: what the option is for in this one command. */
function noted(description: string, note: string | undefined): string {
  return note === undefined ? description : `${description} (${note})`;
}

// One constructor per shared concept, so a flag reads the same in every command's --help
// (test/cli/help-consistency.test.ts holds every command to it). A `note` may add what the option
// is for in one command; the description before it is the flag's meaning everywhere. Defaults are
// given as default values, which commander prints as `(default: …)`; a computed default that has no
// value is written in the description the same way, `(default: …)` at the end. A bundled file's
// default says so, `(default: bundled …)` (see bundled-defaults.ts).

export const protocolOption = (note?: string) =>
  bundledDefault(new Option("--protocol <path>", noted("preregistered protocol", note)), DEFAULTS.protocol);

export const planOption = (note?: string) =>
  bundledDefault(new Option("--plan <path>", noted("authoring plan", note)), DEFAULTS.plan);

export const corpusOption = (note?: string) =>
  bundledDefault(new Option("--corpus <file>", noted("corpus file", note)), DEFAULTS.corpus);

/** The folder `catalog build` writes (role "output") and every other command reads. */
export const catalogsOption = (note?: string, role: DefaultRole = "input") =>
  bundledDefault(
    new Option("--catalogs <dir>", noted("folder of the catalog files", note)),
    DEFAULTS.catalogs,
    role,
  );

/** The frozen condition manifest `conditions freeze --out` writes. */
export const manifestOption = () =>
  bundledDefault(new Option("--manifest <file>", "frozen condition manifest"), DEFAULTS.conditionManifest);

/** Role "state" where the command rewrites the conveyor in place (`conveyor record`). */
export const conveyorOption = (note?: string, role: DefaultRole = "input") =>
  bundledDefault(new Option("--conveyor <file>", noted("prerequisite state", note)), DEFAULTS.conveyor, role);

/**
 * `--out` of a command that regenerates a bundled file: the bundled file in fabench's own checkout;
 * in the working directory when installed (see bundled-defaults.ts).
 */
export const bundledOutOption = (description: string, name: (typeof DEFAULTS)[keyof typeof DEFAULTS]) =>
  bundledDefault(new Option("--out <file>", description), name, "output");

/**
 * Catalog sizes are `--catalog-size` everywhere (#35): one size where a command takes one, a comma
 * list where it takes several (`--catalog-size 100,250`). `--catalog-sizes` is a deprecated alias.
 */
export const catalogSizeOption = () =>
  new Option("--catalog-size <n>", "only this catalog size").argParser(positiveInt("--catalog-size"));

/** Several catalog sizes, under the same name as one. */
export const catalogSizesOption = () =>
  new Option(
    "--catalog-size <list>",
    "only these catalog sizes, comma-separated (default: the protocol's)",
  ).argParser(catalogSizeList("--catalog-size"));

/** Run files a command reads: `--runs FILE`, repeatable, on every command that reads them (#35). */
export const runsOption = (note?: string) =>
  new Option("--runs <file>", noted("run file (JSON Lines; repeatable)", note))
    .argParser(collect)
    .default([]);

/**
 * Run files given positionally, by `--runs`, or both (positional first): where run files are the
 * command's main input. None at all is a usage error naming both ways.
 */
export function runFiles(positional: readonly string[] | undefined, flagged: readonly string[]): string[] {
  const files = [...(positional ?? []), ...flagged];
  if (files.length === 0)
    throw usageError("no_runs", "give at least one run file (as an argument or with --runs FILE)");
  return files;
}

export const jsonOption = () => new Option("--json", "print one JSON object").default(false);

/** For every command that reads run files: what to do with one a live writer holds (its lock). */
export const allowLiveFileOption = () =>
  new Option(
    "--allow-live-file",
    "read a run file even while a live writer holds its lock, as a snapshot without the episodes still in flight; without it, such a file is refused with exit 2",
  ).default(false);

/**
 * Keeps an old flag name working as a hidden, deprecated alias of `canonical` (an option `command`
 * already has): the same argument and parser, one warning line on stderr, and its value handed to
 * the canonical option before the action runs. Both names with different values is a usage error.
 */
export function deprecatedAlias(command: Command, old: string, canonical: string): Command {
  const target = command.options.find((o) => o.long === canonical);
  if (target === undefined) throw new Error(`${command.name()} has no ${canonical} to alias as ${old}`);
  const argument = target.flags.slice(target.flags.indexOf(canonical) + canonical.length);
  const alias = new Option(`${old}${argument}`, `deprecated: use ${canonical}`).hideHelp();
  if (target.parseArg !== undefined) alias.argParser(target.parseArg);
  command.addOption(alias);
  noteAlias(target, alias);
  // A required option given only under its old name: commander checks required options before any
  // hook runs, so the value is handed over as it is parsed (the hook below still warns and checks).
  if (target.mandatory)
    command.on(`option:${alias.name()}`, () => {
      const key = target.attributeName();
      if (command.getOptionValue(key) === undefined)
        command.setOptionValueWithSource(key, command.getOptionValue(alias.attributeName()), "cli");
    });
  command.hook("preAction", () => {
    const oldKey = alias.attributeName();
    if (command.getOptionValueSource(oldKey) !== "cli") return;
    const value: unknown = command.getOptionValue(oldKey);
    const writeErr =
      command.configureOutput().writeErr ?? ((text: string) => void process.stderr.write(text));
    writeErr(`warning: ${old} is deprecated; use ${canonical}\n`);
    const key = target.attributeName();
    if (
      command.getOptionValueSource(key) === "cli" &&
      JSON.stringify(command.getOptionValue(key)) !== JSON.stringify(value)
    )
      throw usageError(
        "conflicting_options",
        `${old} (deprecated) and ${canonical} name the same option with different values; give only ${canonical}`,
      );
    command.setOptionValueWithSource(key, value, "cli");
    command.setOptionValueWithSource(oldKey, undefined, "default");
  });
  return command;
}

/**
 * A positional argument the user gives that names a bundled file: the working directory's file of
 * that name when there is one (the user's, which wins), else the bundled one. An argument left at
 * its default is bundledInput's (bundled-defaults.ts).
 */
export function bundledOr(path: string): string {
  return isBundledName(path) && !existsSync(path) ? bundledPath(path) : path;
}

/** `--pilot DIR`: a pilot folder's files in place of the bundled protocol, plan, corpus, manifest and conveyor. */
export function pilotOption(): Option {
  return new Option(
    "--pilot <dir>",
    "use a pilot folder made by `fabench pilot init` for the protocol, plan, corpus, condition manifest and conveyor; its verdicts say not preregistered",
  );
}

type PilotKey = Exclude<keyof typeof PILOT_FILES, "marker">;
const PILOT_OUTPUTS = new WeakMap<Option, PilotKey>();

/**
 * `option` (an `--out`) writes the pilot file `key` under `--pilot DIR`: what `conditions freeze
 * --pilot DIR` writes is what `run --pilot DIR` reads.
 */
export function pilotOutput(option: Option, key: PilotKey): Option {
  PILOT_OUTPUTS.set(option, key);
  return option;
}

/** The pilot file `key` of `--pilot DIR`, when the command was given one (for positional inputs). */
export function pilotFile(pilot: string | undefined, key: PilotKey): string | undefined {
  return pilot === undefined ? undefined : join(pilot, PILOT_FILES[key]);
}

/** The pilot folder `dir`, refused unless `fabench pilot init` made it. */
export function checkPilotFolder(dir: string, flag = "--pilot"): void {
  if (!existsSync(join(dir, PILOT_FILES.marker)))
    throw usageError(
      "not_a_pilot",
      `${flag} ${dir} is not a pilot folder (no ${PILOT_FILES.marker}); make one with \`fabench pilot init ${dir}\``,
    );
}

/**
 * `--pilot DIR` sets the default of each pilot file's option (and of an `--out` that writes one);
 * an option the user gives as well still wins (#35: `run --pilot p --manifest other.json`).
 */
export function resolvePilot(command: Command): void {
  const dir: unknown = command.getOptionValue("pilot");
  if (typeof dir !== "string") return;
  checkPilotFolder(dir);
  applyPilot(command, dir);
}

/** Every option of `command` left at its default that a file of the pilot folder `dir` stands in for. */
export function applyPilot(command: Command, dir: string): void {
  for (const option of command.options) {
    const key = option.attributeName();
    const file = PILOT_OUTPUTS.get(option) ?? (key in PILOT_FILES && key !== "marker" ? key : undefined);
    if (file === undefined || command.getOptionValueSource(key) === "cli") continue;
    const alias = aliasOf(command, option);
    if (alias !== undefined && command.getOptionValueSource(alias) === "cli") continue;
    command.setOptionValue(key, join(dir, PILOT_FILES[file as PilotKey]));
  }
}

/** The attribute of a deprecated alias of `option`, if it has one (its value is the user's). */
function aliasOf(command: Command, option: Option): string | undefined {
  const alias = command.options.find((o) => o.hidden && o.description === `deprecated: use ${option.long}`);
  return alias?.attributeName();
}

/** `--router`: the ranking a condition manifest is frozen from, or a server answers with. */
export const routerOption = () =>
  new Option(
    "--router <spec>",
    "keyword, names, random:SEED, command:PATH, or an http:// or https:// URL",
  ).default("keyword");

/**
 * `--router http:URL`, the old spelling of an HTTP router (#35), still works: its value becomes the
 * URL, with one warning line naming the new spelling.
 */
export function acceptOldRouterSpelling(command: Command): Command {
  command.hook("preAction", () => {
    const spec: unknown = command.getOptionValue("router");
    if (typeof spec !== "string" || !/^http:https?:\/\//.test(spec)) return;
    const url = spec.slice("http:".length);
    const writeErr =
      command.configureOutput().writeErr ?? ((text: string) => void process.stderr.write(text));
    writeErr(`warning: --router http:URL is deprecated; use --router ${url}\n`);
    command.setOptionValueWithSource("router", url, "cli");
  });
  return command;
}

export const authoredOption = () =>
  bundledDefault(
    new Option("--authored <dir>", "folder of the authored task files, one <stratum>.json per stratum"),
    DEFAULTS.authored,
  );
