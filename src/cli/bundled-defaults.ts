/**
 * Defaults that name bundled files (#25 item 5). An input default reads fabench's bundled copy from
 * any working directory, and a file of the same name in the working directory — which is not read —
 * is named in a warning. An output default rewrites the bundled copy only in fabench's own
 * development checkout, where regenerating a frozen file in place is how it changes; an installed
 * fabench writes the same relative path in the working directory instead and says so (with
 * --check the output is read, so it is an input). What a command writes by default is what the next
 * reads by default (#35): in an installed fabench, an input default that some command writes by
 * default (a condition manifest, plan, corpus, catalogs, task set) reads the working directory's
 * file of that name when there is one, and says so. A file read and rewritten in place (the conveyor
 * of `conveyor record`) has no copy to write beside the user, so an installed fabench requires it.
 * A path the user gives always wins.
 */
import { existsSync, realpathSync } from "node:fs";
import { join } from "node:path";
import type { Command, Option } from "commander";
import type { CliIo } from "../commands/shell/io.ts";
import { type BundledName, bundledPath, isBundledName, toolInstalled, usageError } from "../core/index.ts";

/** What a command does with a bundled default: reads it, writes it, or reads and rewrites it. */
export type DefaultRole = "input" | "output" | "state";

const ROLES = new WeakMap<Option, DefaultRole>();
const ALIASES = new WeakMap<Option, Option>();
/** The bundled names some command writes by default (beside the user, when installed). */
const WRITTEN = new Set<BundledName>();

/**
 * `option` defaults to the bundled file `name`; its help says so (`(default: bundled NAME)`), and
 * for an output of an installed fabench, where it writes instead.
 */
export function bundledDefault(option: Option, name: BundledName, role: DefaultRole = "input"): Option {
  ROLES.set(option, role);
  if (role === "output") WRITTEN.add(name);
  return option.default(name, defaultHelp(name, role, toolInstalled()));
}

function defaultHelp(name: BundledName, role: DefaultRole, installed: boolean): string {
  if (!installed || role === "input") return `bundled ${name}`;
  if (role === "output") return `./${name} in the working directory; with --check, bundled ${name}`;
  return `none: an installed fabench never rewrites its bundled ${name}`;
}

/** Records that `alias` is a deprecated name of `target`, so a value given under it is the user's. */
export function noteAlias(target: Option, alias: Option): void {
  ALIASES.set(target, alias);
}

/**
 * Before an action: each option still at a bundled default becomes the path it means (see the
 * file's comment). Runs before the deprecated aliases hand over their values, so an option given
 * under its old name is left to them.
 */
export function resolveBundledDefaults(command: Command, io: CliIo, cwd: string = process.cwd()): void {
  const check = command.getOptionValue("check") === true;
  for (const option of command.options) {
    const key = option.attributeName();
    const value: unknown = command.getOptionValue(key);
    if (command.getOptionValueSource(key) !== "default" || typeof value !== "string" || !isBundledName(value))
      continue;
    const alias = ALIASES.get(option);
    if (alias !== undefined && command.getOptionValueSource(alias.attributeName()) === "cli") continue;
    const flag = option.long ?? option.flags;
    const role = check ? "input" : (ROLES.get(option) ?? "input");
    if (role === "input") {
      command.setOptionValue(key, bundledInput(value, `${flag} ${value}`, io, cwd));
    } else if (!toolInstalled()) {
      command.setOptionValue(key, bundledPath(value));
    } else if (role === "output") {
      const beside = join(cwd, value);
      io.err(
        `note: fabench is installed as a package, so ${flag} defaults to ${beside} in the working directory; its bundled ${value} is never rewritten\n`,
      );
      command.setOptionValue(key, beside);
    } else {
      throw usageError(
        "output_in_package",
        `${commandPath(command)} rewrites ${flag} in place, and an installed fabench never rewrites its bundled ${value}; give ${flag} FILE (a pilot's, or your copy of the bundled one)`,
      );
    }
  }
}

/** `conveyor record`: the command's names below the program's. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

/**
 * The bundled file `name` as an input. A file of that name in `cwd` that is not the same file is
 * read instead when fabench is installed and some command writes that name there by default (one
 * note line says so); otherwise it is not read, and one warning line says so and how to read it
 * instead (`use`: what to type).
 */
export function bundledInput(name: BundledName, use: string, io: CliIo, cwd: string = process.cwd()): string {
  const bundled = bundledPath(name);
  const here = join(cwd, name);
  if (existsSync(here) && !sameFile(here, bundled) && toolInstalled() && WRITTEN.has(name)) {
    io.err(
      `note: reading ./${name} in the working directory, where an installed fabench writes it by default, not its bundled ${name}\n`,
    );
    return here;
  }
  if (existsSync(here) && !sameFile(here, bundled))
    io.err(
      `warning: ./${name} in the working directory is not read: the default is fabench's bundled ${name}; give ${use} to read yours\n`,
    );
  return bundled;
}

function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}
