/**
 * The one supervisor every child of fabench runs under (command agents, command routers,
 * discover-call adapters). A child starts in its own process group, so whatever it starts can be
 * killed with it: on a time limit, an output limit, an interrupt, and at the end of every
 * invocation (a success too), the whole group gets SIGKILL. fabench waits for the child to *exit*,
 * not for its pipes to close: a grandchild that holds stdout (a shell wrapper's `sleep`, a daemon)
 * cannot keep fabench waiting — after the exit the group is killed and the pipes get a short drain,
 * then are destroyed. Output is kept as bytes and decoded once, strictly, by the caller, so a
 * character split across two pipe chunks arrives whole and invalid UTF-8 is seen, not replaced.
 */
import { type ChildProcess, type SpawnOptions, spawn as nodeSpawn } from "node:child_process";

/** Process groups started here and not yet known dead, each with what marks its run as stopped. */
const liveGroups = new Map<number, () => void>();

/** How long the pipes may still deliver after the child exited and its group was killed. */
export const DRAIN_MS = 50;
const DRAIN_ROUNDS = 10;

/** SIGKILL to a child's whole group (its own pid on Windows, which has no groups); a gone group is fine. */
export function killGroup(pid: number, signal: NodeJS.Signals = "SIGKILL"): void {
  try {
    process.kill(process.platform === "win32" ? pid : -pid, signal);
  } catch {
    // ESRCH: the group is already gone. EPERM cannot happen for our own children's group.
  }
}

/** Registers a started child's group so stopAllChildren reaches it until it is released. */
export function trackGroup(pid: number, onStop: () => void = () => undefined): void {
  liveGroups.set(pid, onStop);
}

/** Kills a group and forgets it: the end of every invocation. */
export function releaseGroup(pid: number): void {
  killGroup(pid);
  liveGroups.delete(pid);
}

/**
 * Kills the process group of every child still running (SIGKILL). Synchronous and safe to call
 * twice, so it can run from a second Ctrl-C and from `process.on("exit")`.
 */
export function stopAllChildren(): void {
  for (const [pid, onStop] of [...liveGroups]) {
    onStop(); // its run ends as `interrupted`, not as a child that died on its own
    releaseGroup(pid);
  }
}

/** How many groups are live: for tests. */
export function liveGroupCount(): number {
  return liveGroups.size;
}

export type SpawnChild = (command: string, args: string[], options: SpawnOptions) => ChildProcess;

export interface ChildRun {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Written to stdin, which is then closed. */
  readonly input: string;
  readonly timeoutMs: number;
  /** More stdout bytes than this stops the child with `stdout_limit`. */
  readonly maxStdoutBytes: number;
  /** More stderr bytes than this stops the child with `stderr_limit` (Infinity: never). */
  readonly maxStderrBytes: number;
  /** How many of the last stderr bytes are kept (0: drained and counted only). */
  readonly keepStderrBytes: number;
  /** Aborting it stops the child with `interrupted`. */
  readonly signal?: AbortSignal | undefined;
  /** On a stop, SIGTERM to the group and SIGKILL this much later; absent: SIGKILL at once. */
  readonly killGraceMs?: number | undefined;
  readonly spawn?: SpawnChild | undefined;
}

/** Why fabench stopped a child before it finished on its own. */
export type StopReason = "timeout" | "stdout_limit" | "stderr_limit" | "interrupted";

export type ChildOutcome =
  | { readonly kind: "start_failed"; readonly errno: string }
  | { readonly kind: "stopped"; readonly reason: StopReason; readonly stderr: ByteTail }
  | {
      readonly kind: "exited";
      readonly code: number | null;
      readonly signal: NodeJS.Signals | null;
      readonly stdout: Buffer;
      /** The kept tail of stderr (`keepStderrBytes`). */
      readonly stderr: ByteTail;
    };

/** The last `limit` bytes of a stream, holding at most that plus the chunk being added. */
export class ByteTail {
  private kept: Buffer = Buffer.alloc(0);
  private dropped = false;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    if (this.limit === 0) return;
    const joined = this.kept.length === 0 ? chunk : Buffer.concat([this.kept, chunk]);
    if (joined.length <= this.limit) this.kept = joined;
    else {
      this.dropped = true;
      this.kept = Buffer.from(joined.subarray(joined.length - this.limit)); // a copy: the chunk is let go
    }
  }

  bytes(): Buffer {
    return this.kept;
  }

  /** The bytes kept, as text: a character cut by the limit is skipped, and `…` marks a cut start. */
  text(): string {
    return tailText(this.kept, this.dropped);
  }
}

/** Text of a tail of bytes (lenient: it is only quoted); `…` and no half character when it was cut. */
export function tailText(kept: Buffer, cut: boolean): string {
  let start = 0;
  if (cut) while (start < kept.length && ((kept[start] as number) & 0xc0) === 0x80) start++;
  return `${cut ? "…" : ""}${kept.subarray(start).toString("utf8")}`;
}

/** Strict UTF-8: the text, or null when the bytes are not UTF-8 (nothing is replaced). */
export function decodeStrictUtf8(bytes: Buffer): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** Runs a child to its end (see the file comment); never rejects. */
export function runChild(run: ChildRun): Promise<ChildOutcome> {
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = (run.spawn ?? (nodeSpawn as SpawnChild))(run.command, [...run.args], {
        stdio: ["pipe", "pipe", "pipe"],
        env: { ...run.env },
        shell: false,
        detached: process.platform !== "win32",
        windowsHide: true,
      });
    } catch (error) {
      resolve({ kind: "start_failed", errno: (error as NodeJS.ErrnoException).code ?? "error" });
      return;
    }
    superviseChild(child, run, resolve);
    child.stdin?.on("error", () => undefined); // a child that exits without reading its stdin
    child.stdin?.end(run.input);
  });
}

/** Watches one started child: limits, time, interrupt, and its end (settled once). */
function superviseChild(child: ChildProcess, run: ChildRun, resolve: (outcome: ChildOutcome) => void): void {
  const pid = child.pid;
  const stdout: Buffer[] = [];
  let stdoutBytes = 0;
  let stderrBytes = 0;
  const stderr = new ByteTail(run.keepStderrBytes);
  let stopping: StopReason | null = null;
  let settled = false;
  const timers: NodeJS.Timeout[] = [];
  const onAbort = () => stop("interrupted");
  if (pid !== undefined)
    trackGroup(pid, () => {
      stopping ??= "interrupted";
    });

  const settle = (outcome: ChildOutcome) => {
    if (settled) return;
    settled = true;
    for (const timer of timers) clearTimeout(timer);
    run.signal?.removeEventListener("abort", onAbort);
    if (pid !== undefined) releaseGroup(pid);
    child.stdout?.destroy();
    child.stderr?.destroy();
    child.stdin?.destroy();
    resolve(outcome);
  };
  const stop = (reason: StopReason) => {
    if (settled || stopping !== null) return;
    stopping = reason;
    if (pid === undefined) return;
    if (run.killGraceMs === undefined) return killGroup(pid);
    killGroup(pid, "SIGTERM");
    timers.push(setTimeout(() => killGroup(pid), run.killGraceMs));
  };

  timers.push(setTimeout(() => stop("timeout"), run.timeoutMs));
  if (run.signal?.aborted) stop("interrupted");
  else run.signal?.addEventListener("abort", onAbort, { once: true });

  child.stdout?.on("data", (chunk: Buffer) => {
    if (stopping !== null) return;
    stdoutBytes += chunk.length;
    if (stdoutBytes > run.maxStdoutBytes) stop("stdout_limit");
    else stdout.push(chunk);
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    if (stopping !== null) return;
    stderrBytes += chunk.length;
    if (stderrBytes > run.maxStderrBytes) stop("stderr_limit");
    else stderr.push(chunk);
  });
  child.on("error", (error: NodeJS.ErrnoException) => {
    // After a start, an error is a failed kill or write; the exit says how the child ended.
    if (child.pid === undefined) settle({ kind: "start_failed", errno: error.code ?? error.message });
  });
  child.on("exit", (code, signal) => {
    // The group goes now: a grandchild holding the pipes dies with it (one that left the group
    // cannot hold us either: the pipes are destroyed after the drain).
    if (pid !== undefined) killGroup(pid);
    afterDrain(
      child,
      timers,
      () => stdoutBytes + stderrBytes,
      () =>
        settle(
          stopping !== null
            ? { kind: "stopped", reason: stopping, stderr }
            : { kind: "exited", code, signal, stdout: Buffer.concat(stdout), stderr },
        ),
    );
  });
}

/**
 * Calls `finish` once both pipes have closed, or once they have been quiet for DRAIN_MS (a process
 * that left the group holds them). The quiet check runs in setImmediate, after the event loop's
 * poll phase: what the dead group left in a pipe is read before the pipe is given up, even when a
 * busy loop let the timer fall due late.
 */
function afterDrain(
  child: ChildProcess,
  timers: NodeJS.Timeout[],
  received: () => number,
  finish: () => void,
): void {
  // A process that left the group and keeps writing is given up on after DRAIN_ROUNDS.
  const arm = (seen: number, round: number) =>
    timers.push(
      setTimeout(
        () =>
          setImmediate(() => {
            const now = received();
            if (now === seen || round >= DRAIN_ROUNDS) finish();
            else arm(now, round + 1);
          }),
        DRAIN_MS,
      ),
    );
  arm(received(), 1);
  const streams = [child.stdout, child.stderr].filter((s) => s !== null && !s.closed && !s.destroyed);
  let open = streams.length;
  if (open === 0) return finish();
  for (const stream of streams)
    stream?.once("close", () => {
      open -= 1;
      if (open === 0) finish();
    });
}
