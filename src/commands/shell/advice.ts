/**
 * What a failed `--check` tells the user to run. Following it must never write into an installed
 * fabench (#25): the installed package's own copy is not to be rewritten, and a file the user named
 * is rewritten by naming it again (the bare command would write the default instead).
 */
import { type BundledName, bundledPath, isInsideFolder, toolInstalled, toolRoot } from "../../core/index.ts";

/**
 * `command` regenerates the bundled `name`; `flag` names where it writes; `path` is what was
 * checked (the value of `flag`).
 */
export function rewriteAdvice(command: string, flag: string, path: string, name: BundledName): string {
  if (toolInstalled() && isInsideFolder(path, toolRoot()))
    return `it is the installed fabench's own copy, which fabench never rewrites: reinstall fabench, or run \`fabench ${command} ${flag} ${name}\` to write a fresh one in the working directory`;
  if (samePlace(path, bundledPath(name))) return `run \`fabench ${command}\` to rewrite it`;
  return `run \`fabench ${command} ${flag} ${shellWord(path)}\` to rewrite it`;
}

function samePlace(a: string, b: string): boolean {
  return isInsideFolder(a, b) && isInsideFolder(b, a);
}

/** A path as one shell word: as given when it is plain, else single-quoted. */
function shellWord(path: string): string {
  return /^[\w./@%+=:,-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}
