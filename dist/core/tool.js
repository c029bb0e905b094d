/**
 * fabench itself: where its files live, its version, and its git revision. Records name the tool
 * that made them; these answer for the tool, never for the directory a user runs it from.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
/** The package root (this file is `src/core/tool.ts`). */
export function toolRoot() {
    return fileURLToPath(new URL("../../", import.meta.url));
}
export function toolVersion() {
    return JSON.parse(readFileSync(join(toolRoot(), "package.json"), "utf8")).version;
}
/**
 * fabench's own git revision when it runs from its own checkout; null when installed as a package
 * or when the tool's folder sits inside someone else's repository (their HEAD is not ours).
 */
export function toolRevision() {
    try {
        const git = (args) => execFileSync("git", ["-C", toolRoot(), ...args], {
            encoding: "utf8",
            stdio: ["ignore", "pipe", "ignore"],
        }).trim();
        if (resolve(git(["rev-parse", "--show-toplevel"])) !== resolve(toolRoot()))
            return null;
        const revision = git(["rev-parse", "HEAD"]);
        return /^[0-9a-f]{40}$/.test(revision) ? revision : null;
    }
    catch {
        return null;
    }
}
