/**
 * Which file a path names, whatever its spelling: the path with every symbolic link resolved (the
 * file itself need not exist yet), and, once it exists, its device and inode — what a hard link
 * shares with the name it was made from.
 */
import { lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

/** How many symbolic links a path may pass through before it counts as a loop (Linux allows 40). */
const MAX_LINKS = 40;

/**
 * The absolute path with `.`, `..` and every symbolic link resolved. A file that does not exist
 * yet is named through its folder's canonical path, and a dangling link by what it points at, so
 * a writer that is about to create the file and one reaching it through a link agree on its name.
 * A path that cannot be inspected (no permission, a file where a folder should be) is returned
 * resolved but otherwise as given.
 */
export function canonicalPath(path: string): string {
  return canonical(resolve(path), MAX_LINKS);
}

function canonical(absolute: string, linksLeft: number): string {
  try {
    return realpathSync(absolute);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") return absolute;
  }
  let isLink: boolean;
  try {
    isLink = lstatSync(absolute).isSymbolicLink();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") return absolute;
    // Not there: its folder's canonical path, and its own name.
    const parent = dirname(absolute);
    return parent === absolute ? absolute : join(canonical(parent, linksLeft), basename(absolute));
  }
  if (!isLink || linksLeft === 0) return absolute;
  // A dangling link (realpath failed): follow it by hand to the name the file will have.
  let target: string;
  try {
    target = readlinkSync(absolute);
  } catch {
    return absolute;
  }
  return canonical(resolve(dirname(absolute), target), linksLeft - 1);
}

/** A file's device and inode, exactly (`123:456`), or null when there is no such file. */
export function inodeOf(path: string): string | null {
  try {
    const stats = statSync(path, { bigint: true });
    return `${stats.dev}:${stats.ino}`;
  } catch {
    return null;
  }
}

/** How many names (hard links) a file has, or 0 when there is no such file. */
export function linkCount(path: string): number {
  try {
    return statSync(path).nlink;
  } catch {
    return 0;
  }
}
