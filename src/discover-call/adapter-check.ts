/**
 * The adapter is checked before the run sends its first API request (issue #25): an adapter that
 * cannot start would otherwise fail every trial as `adapter/start_failed`, after a discover request
 * each, and the run would exit 0 with a file of failures that measure nothing.
 *
 * Protocol v1 has no handshake: an adapter's only input is a stage request, and answering one may
 * cost a model call (a CLI adapter such as the reference's codex-cli.mjs calls its model whatever
 * the stage). So the check goes as far as the protocol allows without a request: the executable
 * exists and may be executed, and it starts — spawned exactly as a stage is (no shell, the same
 * arguments and environment), then killed before it is given anything to read. What the adapter
 * would answer is the trials' measurement.
 */
import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { FabenchError, releaseGroup, trackGroup } from "../core/index.ts";
import { adapterEnvironment } from "./adapters.ts";
import { STAGE } from "./jsonl.ts";

export interface AdapterCheck {
  readonly command: string;
  readonly args: readonly string[];
  /** The parent's environment; the probe gets the stage environment (adapterEnvironment). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Variables named by `--pass-env`. */
  readonly passEnv?: readonly string[];
}

export type ProbeSpawn = (command: string, args: string[], options: SpawnOptions) => ChildProcess;

export interface AdapterCheckDeps {
  readonly spawn?: ProbeSpawn;
  /** The platform the path checks are for; permission bits mean nothing on Windows. */
  readonly platform?: NodeJS.Platform;
}

/** `adapter_unavailable`, exit 2: one line naming the adapter and the cause. */
function unavailable(command: string, cause: string): FabenchError {
  return new FabenchError({
    kind: "input",
    stage: STAGE,
    code: "adapter_unavailable",
    message: `--adapter ${command}: ${cause}; nothing was sent and nothing written`,
  });
}

/** A command with a path separator is a file; anything else is looked up on PATH by spawn. */
const isPath = (command: string) => command.includes("/") || command.includes("\\");

/** Why a path cannot be an adapter, or null when it looks runnable. */
function pathProblem(command: string, platform: NodeJS.Platform): string | null {
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(command);
  } catch {
    return "no such file";
  }
  if (stats.isDirectory()) return "is a folder, not an executable";
  if (!stats.isFile()) return "is not a regular file";
  if (platform === "win32") return null;
  try {
    accessSync(command, constants.X_OK);
  } catch {
    return "is not executable (chmod +x it, or give its interpreter as --adapter and the file as --adapter-arg)";
  }
  return null;
}

/** What a spawn error says about the adapter, in the words of someone fixing the command line. */
function spawnProblem(command: string, error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case "ENOENT":
      return isPath(command)
        ? "cannot start: the interpreter its #! line names was not found"
        : "not found on PATH";
    case "EACCES":
      return "cannot start: permission denied";
    case "ENOEXEC":
      return "cannot start: not a program this system runs (no #! line?)";
    default:
      return `cannot start (${error.code ?? "spawn failed"})`;
  }
}

/**
 * Resolves when the adapter exists, may be executed and starts; otherwise rejects with
 * `adapter_unavailable`. The started process is killed at once and waited for.
 */
export async function checkProcessAdapter(check: AdapterCheck, deps: AdapterCheckDeps = {}): Promise<void> {
  const { command } = check;
  if (isPath(command)) {
    const problem = pathProblem(command, deps.platform ?? process.platform);
    if (problem !== null) throw unavailable(command, problem);
  }
  const start = deps.spawn ?? (spawn as ProbeSpawn);
  await new Promise<void>((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = start(command, [...check.args], {
        shell: false,
        // stdin stays open and unwritten: the adapter waits for a request that never comes.
        stdio: ["pipe", "ignore", "ignore"],
        env: adapterEnvironment(check.env, check.passEnv),
        // Its own process group, as a stage's: whatever it starts before the kill goes with it.
        detached: process.platform !== "win32",
        windowsHide: true,
      });
    } catch (error) {
      reject(unavailable(command, spawnProblem(command, error as NodeJS.ErrnoException)));
      return;
    }
    let started = false;
    child.stdin?.on("error", () => undefined);
    child.once("spawn", () => {
      started = true;
      if (child.pid === undefined) return void child.kill("SIGKILL");
      trackGroup(child.pid);
      releaseGroup(child.pid);
    });
    child.once("error", (error: NodeJS.ErrnoException) => {
      // After the spawn, an error can only be a failed kill: the adapter did start.
      if (!started) reject(unavailable(command, spawnProblem(command, error)));
    });
    child.once("close", () => {
      if (started) resolve();
    });
  });
}
