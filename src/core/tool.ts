/**
 * fabench itself: where its files live, its version, and its git revision. Records name the tool
 * that made them; these answer for the tool, never for the directory a user runs it from.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** Where fabench lives, and whether that place is an installed package or its own checkout. */
export interface ToolPlace {
  readonly root: string;
  /**
   * An installed package's bundled files are the package's: fabench reads them and never writes
   * them. In fabench's own development checkout, regenerating a frozen file in place is how it
   * changes (`fabench plan generate` rewrites manifests/authoring-plan.json).
   */
  readonly installed: boolean;
}

/**
 * The folder holding this file's package: the nearest folder above this file whose package.json is
 * fabench's. This file is `src/core/tool.ts` in a clone, and a module somewhere under `dist/` in an
 * installed package (the build bundles the sources, so its depth there is not fixed).
 */
function ownRoot(): string {
  const start = fileURLToPath(new URL(".", import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    if (isFabenchPackage(join(dir, "package.json"))) return `${dir.replace(/[\\/]$/, "")}${sep}`;
    if (dirname(dir) === dir) return fileURLToPath(new URL("../../", import.meta.url));
  }
}

function isFabenchPackage(path: string): boolean {
  try {
    return (JSON.parse(readFileSync(path, "utf8")) as { name?: unknown }).name === "fabench";
  } catch {
    return false;
  }
}

/**
 * Installed, unless the folder is a git checkout (`.git`, a folder or a worktree's file) that no
 * `node_modules` folder contains: npm never unpacks `.git`, and a checkout inside node_modules is
 * someone's dependency, not fabench's development.
 */
export function isInstalledRoot(root: string): boolean {
  return resolve(root).split(sep).includes("node_modules") || !existsSync(join(root, ".git"));
}

let placed: ToolPlace | undefined;

/**
 * For tests: run fabench as if it lived at `place.root` (a copy of its bundled files) and were or
 * were not installed there. Returns the function that puts it back.
 */
export function placeTool(place: ToolPlace): () => void {
  const before = placed;
  placed = place;
  return () => {
    placed = before;
  };
}

/** The package root. */
export function toolRoot(): string {
  return placed?.root ?? ownRoot();
}

/** Whether fabench runs as an installed package (see ToolPlace.installed). */
export function toolInstalled(): boolean {
  return placed?.installed ?? isInstalledRoot(ownRoot());
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

export type BundledName = (typeof BUNDLED_FILES)[number];

export function bundledPath(name: BundledName): string {
  return join(toolRoot(), name);
}

/** Whether a path is a bundled file's name as the CLI's defaults spell it. */
export function isBundledName(path: string): path is BundledName {
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
