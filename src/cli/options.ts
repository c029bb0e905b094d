/** Shared option parsing and defaults for every command group. */
import { existsSync } from "node:fs";
import type { Command } from "commander";
import type { CliIo } from "../commands/io.ts";
import { bundledPath, isBundledName, usageError } from "../core/index.ts";

export const DEFAULTS = {
  protocol: "manifests/preregistration.json",
  plan: "manifests/authoring-plan.json",
  catalogs: "tasks/catalogs",
  corpus: "tasks/final-answer-corpus.json",
  authored: "tasks/authored",
  conditionManifest: "manifests/condition-manifest.json",
  conveyor: "manifests/conveyor.json",
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

export function parseCatalogSize(text: string): number {
  if (!/^[1-9]\d*$/.test(text))
    throw usageError("bad_catalog_size", `--catalog takes a catalog size, not ${text}`);
  return Number(text);
}

/**
 * A positional argument that names a bundled file resolves against the package, as option defaults
 * do (see resolveBundledDefaults in src/cli.ts) — unless the working directory has a file of that
 * name, which is then the user's and wins.
 */
export function bundledOr(path: string): string {
  return isBundledName(path) && !existsSync(path) ? bundledPath(path) : path;
}
