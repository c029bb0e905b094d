/**
 * One temporary folder per test run for fixtures many test files read (reference runs and their
 * summaries, test/helpers/shared-fixtures.ts). Each is built at most once per run, by the first
 * test file that asks for it, so a run of one file builds only what that file needs. The folder is
 * removed at the end.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    sharedFixtureFolder: string;
  }
}

export default function setup(project: TestProject): () => void {
  const folder = mkdtempSync(join(tmpdir(), "fabench-shared-"));
  project.provide("sharedFixtureFolder", folder);
  return () => rmSync(folder, { recursive: true, force: true });
}
