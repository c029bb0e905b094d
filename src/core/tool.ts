/**
 * fabench itself: where its files live, its version, and its git revision. Records name the tool
 * that made them; these answer for the tool, never for the directory a user runs it from.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The package root (this file is `src/core/tool.ts`). */
export function toolRoot(): string {
  return fileURLToPath(new URL("../../", import.meta.url));
}

/**
 * The files fabench ships and uses as defaults from any working directory: the protocol, plan,
 * corpus and its authored sources, catalogs, condition manifest, conveyor state, prompts and JSON
 * Schemas. The one place that turns a bundled file's name into a path.
 */
export const BUNDLED_FILES = [
  "manifests/preregistration.json",
  "manifests/authoring-plan.json",
  "manifests/condition-manifest.json",
  "manifests/conveyor.json",
  "tasks/final-answer-corpus.json",
  "tasks/authored",
  "tasks/catalogs",
  "tasks/discover-call/final-answer-v4.jsonl",
  "manifests/discover-call-publication-policy.json",
] as const;

export function bundledPath(name: (typeof BUNDLED_FILES)[number]): string {
  return join(toolRoot(), name);
}

/** Whether a path is a bundled file's name as the CLI's defaults spell it. */
export function isBundledName(path: string): path is (typeof BUNDLED_FILES)[number] {
  return (BUNDLED_FILES as readonly string[]).includes(path);
}

export function toolVersion(): string {
  return (JSON.parse(readFileSync(join(toolRoot(), "package.json"), "utf8")) as { version: string }).version;
}

/**
 * fabench's own git revision when it runs from its own checkout; null when installed as a package
 * or when the tool's folder sits inside someone else's repository (their HEAD is not ours).
 */
export function toolRevision(): string | null {
  try {
    const git = (args: string[]) =>
      execFileSync("git", ["-C", toolRoot(), ...args], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }).trim();
    if (resolve(git(["rev-parse", "--show-toplevel"])) !== resolve(toolRoot())) return null;
    const revision = git(["rev-parse", "HEAD"]);
    return /^[0-9a-f]{40}$/.test(revision) ? revision : null;
  } catch {
    return null;
  }
}
