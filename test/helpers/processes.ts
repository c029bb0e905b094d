/**
 * Children that tests start and must see dead: scripts that write their grandchildren's pids to a
 * file, a liveness check that counts a zombie as dead, and a clean-up that kills whatever a failed
 * test left behind.
 */
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";

/** Whether a process exists and is not a zombie waiting to be reaped. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false; // ESRCH
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** Waits until `pid` is dead, up to `polls` × 20 ms (a bound on a test that fails, not a speed claim). */
export async function deadSoon(pid: number, polls = 100): Promise<boolean> {
  for (let i = 0; i < polls; i++) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return !alive(pid);
}

/** Pids written one per line to `file` (a script's `echo $! >> file`). */
export function pidsIn(file: string): number[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map(Number);
}

/**
 * A fresh file per call for a script to list its pids in, in a folder of its own (so no other
 * clean-up removes it first); after each test every pid listed is killed and the folder removed:
 * nothing a failing test started outlives it.
 */
export function useKillAfter(): () => string {
  let dir: string | undefined;
  let count = 0;
  afterEach(() => {
    if (dir === undefined) return;
    for (const name of readdirSync(dir))
      for (const pid of pidsIn(join(dir, name)))
        for (const target of [-pid, pid]) // its group too: a shell's foreground child is listed nowhere
          try {
            process.kill(target, "SIGKILL");
          } catch {
            // already gone, or not a group leader
          }
    rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  return () => {
    dir ??= mkdtempSync(join(tmpdir(), "fabench-pids-"));
    count += 1;
    return join(dir, `pids-${count}`);
  };
}

/** An executable script in `dir`. */
export function script(dir: string, name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, body);
  chmodSync(path, 0o755);
  return path;
}
