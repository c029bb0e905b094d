/**
 * Temporary folders for tests, always removed: one per test (`useTempDir`), or one for a whole
 * describe block whose fixture is built in `beforeAll` (`useSuiteTempDir`). Both make the folder
 * only when it is needed, so a block that is skipped or filtered out leaves nothing behind.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll } from "vitest";

/** A fresh temporary folder per test, removed after it. */
export function useTempDir(): () => string {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  return () => {
    dir ??= mkdtempSync(join(tmpdir(), "fabench-test-"));
    return dir;
  };
}

/**
 * One temporary folder for the describe block it is called in: made before its first test (call
 * this before the `beforeAll` that fills it) and removed after its last.
 */
export function useSuiteTempDir(): () => string {
  let dir: string | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "fabench-suite-"));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  return () => {
    if (dir === undefined)
      throw new Error("useSuiteTempDir: the folder exists only from beforeAll to afterAll of its block");
    return dir;
  };
}

export { join };
