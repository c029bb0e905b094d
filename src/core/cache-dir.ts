/**
 * The user's cache folder for fabench: `FABENCH_CACHE_DIR`, else `$XDG_CACHE_HOME/fabench`, else
 * `~/.cache/fabench` (`%LOCALAPPDATA%\fabench` on Windows). Read from the environment a command is
 * handed (never `process.env` here), so a test points it at a temporary folder. What is kept there
 * is only ever a shortcut: deleting the folder, or `FABENCH_NO_CACHE=1`, costs time and nothing else.
 */
import { isAbsolute, join } from "node:path";
import { isInsideFolder } from "./outputs.ts";
import { toolRoot } from "./tool.ts";

export type Environment = Readonly<Record<string, string | undefined>>;

/** The cache folder, or null when caching is off or no place for it is known. */
export function userCacheDir(env: Environment): string | null {
  const off = env["FABENCH_NO_CACHE"];
  if (off !== undefined && off !== "" && off !== "0") return null;
  const dir = candidate(env);
  // Never inside fabench's own folder: an installed package's files are read-only by contract, and
  // a checkout's are under version control.
  if (dir === null || !isAbsolute(dir) || isInsideFolder(dir, toolRoot())) return null;
  return dir;
}

function candidate(env: Environment): string | null {
  const set = (name: string) => {
    const value = env[name];
    return value === undefined || value === "" ? null : value;
  };
  const explicit = set("FABENCH_CACHE_DIR");
  if (explicit !== null) return explicit;
  const xdg = set("XDG_CACHE_HOME");
  if (xdg !== null) return join(xdg, "fabench");
  const local = set("LOCALAPPDATA");
  if (process.platform === "win32" && local !== null) return join(local, "fabench");
  const home = set("HOME");
  return home === null ? null : join(home, ".cache", "fabench");
}
