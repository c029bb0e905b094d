/**
 * Where a command may write. An output may not be one of the command's inputs — compared as files
 * (device and inode, symlinks followed), or by resolved path when the file does not exist yet — nor
 * a bundled frozen file, unless regenerating exactly that file is the command's purpose (in fabench's
 * own checkout), nor anything inside an installed fabench package, whatever path names it (#25).
 * Checked before any work, so a refused command leaves every file as it was.
 */
import { existsSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { usageError } from "./errors.ts";
import { BUNDLED_FILES, type BundledName, bundledPath, toolInstalled, toolRoot } from "./tool.ts";

/** A file's identity: its device and inode when it exists, else its resolved path (parent symlinks followed). */
function identity(path: string): string {
  if (existsSync(path)) {
    const s = statSync(path);
    return `inode:${s.dev}:${s.ino}`;
  }
  const parent = dirname(resolve(path));
  return `path:${join(existsSync(parent) ? realpathSync(parent) : parent, basename(path))}`;
}

/** The real path of `path`, or of its nearest existing ancestor joined with the rest. */
function realish(path: string): string {
  const absolute = resolve(path);
  if (existsSync(absolute)) return realpathSync(absolute);
  const parent = dirname(absolute);
  return parent === absolute ? absolute : join(realish(parent), basename(absolute));
}

/** Whether `path` (symlinks resolved, as far as it exists) lies in `folder` (resolved likewise). */
export function isInsideFolder(path: string, folder: string): boolean {
  return inside(realish(path), realish(folder));
}

function inside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

export interface OutputRules {
  /** Input files of the command (undefined entries are skipped). */
  readonly inputs: ReadonlyArray<string | undefined>;
  /** The bundled file (or folder) this command exists to regenerate, which it may overwrite. */
  readonly regenerates?: BundledName;
  /** The flag that names the output, for the message. */
  readonly flag?: string;
}

/** Refuses (exit 2) an output that is a folder, one of the inputs, a frozen bundled file, or in the installed package. */
export function checkOutput(out: string, rules: OutputRules): void {
  const flag = rules.flag ?? "--out";
  if (out === "") throw usageError("empty_path", `${flag} is an empty path`);
  if (existsSync(out) && statSync(out).isDirectory())
    throw usageError("output_is_folder", `${flag} ${out} is a folder; give a file path`);
  const own = identity(out);
  const input = rules.inputs.find((p) => p !== undefined && p !== "" && identity(p) === own);
  if (input !== undefined)
    throw usageError(
      "output_is_input",
      `${flag} ${out} is ${input === out ? "one of this command's inputs" : `the input ${input}`}; writing it would destroy it — choose another path`,
    );
  const real = realish(out);
  if (toolInstalled() && inside(real, realish(toolRoot())))
    throw usageError(
      "output_in_package",
      `${flag} ${out} lies inside the installed fabench package (${resolve(toolRoot())}); fabench never writes there — choose a path in your project`,
    );
  for (const name of BUNDLED_FILES) {
    if (name === rules.regenerates) continue;
    if (inside(real, realish(bundledPath(name))))
      throw usageError(
        "output_is_frozen",
        `${flag} ${out} is fabench's frozen ${name}; it changes only through the command that regenerates it — choose another path`,
      );
  }
}
