/** A folder's every file and the sha256 of its bytes: equal lists mean nothing was added, removed or changed. */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** `path sha256` for every file under `root`, sorted by path. */
export function fileHashes(root: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
    );
  return walk(root)
    .map((file) => `${relative(root, file)} ${createHash("sha256").update(readFileSync(file)).digest("hex")}`)
    .sort();
}
