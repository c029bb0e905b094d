/**
 * Subprocess adapters, protocol v1 (DISCOVER-CALL.md §3): one child per stage, started without a
 * shell (`--adapter` is the executable, each `--adapter-arg` one argv entry). The request goes in on
 * stdin, which is then closed; the answer is the one JSON value on stdout. Any adapter written for
 * the reference implementation runs here unchanged.
 *
 * Every failure becomes an AdapterFailure with a code and the fixed message. stderr is read only
 * for the `QVERIS_BENCHMARK_ADAPTER_ERROR=<code>` marker and then dropped: it may hold a provider's
 * error body, prompts or keys, so it is never stored or shown.
 */
import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { usageError } from "../core/index.ts";
import {
  ADAPTER_REPORTED_CODES,
  type Adapter,
  type AdapterFailureCode,
  adapterFailure,
} from "./adapter-protocol.ts";

export const ADAPTER_ERROR_MARKER = "QVERIS_BENCHMARK_ADAPTER_ERROR";

/** Limits of the protocol: characters of stdout and stderr, and the default time limit per stage. */
export const ADAPTER_LIMITS = {
  stdoutChars: 1_000_000,
  stderrChars: 100_000,
  timeoutMs: 120_000,
  /** Between SIGTERM and SIGKILL for a child that outlives its limit. */
  killGraceMs: 1_000,
} as const;

/** Prefixes (any case) and exact names of variables an adapter never inherits: the benchmark's own key and CI credentials. */
const WITHHELD_PREFIXES = ["QVERIS_", "ACTIONS_", "GITHUB_", "RUNNER_"];
const WITHHELD_NAMES = new Set([
  "BENCHMARK_PR_TOKEN",
  "GH_TOKEN",
  "GITHUB_TOKEN",
  "NODE_AUTH_TOKEN",
  "NPM_TOKEN",
  "PYPI_API_TOKEN",
]);

/** The child's environment: the parent's minus the withheld names. Model keys pass, so CLI adapters work. */
export function adapterEnvironment(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => {
      const [name, value] = entry;
      const upper = name.toUpperCase();
      return (
        value !== undefined &&
        !WITHHELD_PREFIXES.some((prefix) => upper.startsWith(prefix)) &&
        !WITHHELD_NAMES.has(upper)
      );
    }),
  );
}

const REPORTED = new Set<string>(ADAPTER_REPORTED_CODES);
const MARKER = new RegExp(`${ADAPTER_ERROR_MARKER}=([a-z0-9_]+)`, "g");

/**
 * The first listed code an adapter reported on stderr, else null. The whole token must be listed:
 * `missing_reference_candidate` is that code, not `missing_reference` followed by noise.
 */
export function reportedAdapterCode(stderr: string): AdapterFailureCode | null {
  for (const match of stderr.matchAll(MARKER))
    if (REPORTED.has(match[1] as string)) return match[1] as AdapterFailureCode;
  return null;
}

export interface ProcessAdapterOptions {
  readonly command: string;
  readonly args: readonly string[];
  /** The parent's environment, from the CLI; the child gets it through adapterEnvironment. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Per stage (default 120,000 ms). */
  readonly timeoutMs?: number;
  readonly killGraceMs?: number;
}

export type SpawnProcess = (command: string, args: string[], options: SpawnOptions) => ChildProcess;

export interface ProcessAdapterDeps {
  readonly spawn?: SpawnProcess;
}

function checkOptions(options: ProcessAdapterOptions): void {
  if (options.command === "") throw usageError("missing_adapter", "--adapter names no executable");
  const timeout = options.timeoutMs ?? ADAPTER_LIMITS.timeoutMs;
  if (!Number.isInteger(timeout) || timeout < 1)
    throw usageError("bad_adapter_timeout", "the adapter time limit must be a positive whole number of ms");
  const grace = options.killGraceMs ?? ADAPTER_LIMITS.killGraceMs;
  if (!Number.isInteger(grace) || grace < 1 || grace > 10_000)
    throw usageError("bad_adapter_timeout", "the adapter kill grace must be 1 to 10000 ms");
}

/** An adapter that runs `command args…` once per request. */
export function processAdapter(options: ProcessAdapterOptions, deps: ProcessAdapterDeps = {}): Adapter {
  checkOptions(options);
  const env = adapterEnvironment(options.env);
  const start = deps.spawn ?? (spawn as SpawnProcess);
  return (request) =>
    runChild(start, options, env, JSON.stringify(request)).then((stdout) => {
      try {
        return JSON.parse(stdout.trim()) as unknown;
      } catch {
        throw adapterFailure("invalid_json");
      }
    });
}

/** Runs the child to its end and gives its stdout, or rejects with the first failure found. */
function runChild(
  start: SpawnProcess,
  options: ProcessAdapterOptions,
  env: Record<string, string>,
  input: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = start(options.command, [...options.args], {
        shell: false,
        stdio: ["pipe", "pipe", "pipe"],
        env,
        windowsHide: true,
      });
    } catch {
      reject(adapterFailure("start_failed"));
      return;
    }
    superviseChild(child, options, resolve, reject);
    child.stdin?.on("error", () => undefined); // a child that exits without reading its stdin
    child.stdin?.end(input);
  });
}

/** What a child has written so far, and whether it is being stopped. */
interface ChildOutput {
  stdout: string;
  stderr: string;
  /** Set when a limit is hit: the child is being stopped and this is what the stage records. */
  stopping: AdapterFailureCode | null;
}

/** Watches a started child: its time limit, its output limits, and how it ends (settled once). */
function superviseChild(
  child: ChildProcess,
  options: ProcessAdapterOptions,
  resolve: (stdout: string) => void,
  reject: (failure: unknown) => void,
): void {
  const output: ChildOutput = { stdout: "", stderr: "", stopping: null };
  let settled = false;
  let killTimer: NodeJS.Timeout | undefined;
  const timer = setTimeout(() => stop("timeout"), options.timeoutMs ?? ADAPTER_LIMITS.timeoutMs);

  const settle = (outcome: () => void) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    clearTimeout(killTimer);
    output.stderr = "";
    outcome();
  };
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  // A grandchild can hold the pipes open after the child is gone; closing our ends ends the wait.
  const release = () => {
    child.stdout?.destroy();
    child.stderr?.destroy();
  };
  const stop = (code: AdapterFailureCode) => {
    if (settled || output.stopping !== null) return;
    output.stopping = code;
    clearTimeout(timer);
    if (exited()) return release();
    child.kill("SIGTERM");
    killTimer = setTimeout(() => child.kill("SIGKILL"), options.killGraceMs ?? ADAPTER_LIMITS.killGraceMs);
    killTimer.unref();
  };

  readOutput(child, output, stop);
  child.on("exit", () => {
    if (output.stopping !== null) release();
  });
  child.on("error", () => {
    // After a stop, an error is a failed kill; the stop's code is what counts.
    if (output.stopping === null) settle(() => reject(adapterFailure("start_failed")));
  });
  child.on("close", (code: number | null) => {
    if (output.stopping !== null) {
      const failure = adapterFailure(output.stopping);
      return settle(() => reject(failure));
    }
    if (code !== 0) {
      const failure = adapterFailure(reportedAdapterCode(output.stderr) ?? "process_exit");
      return settle(() => reject(failure));
    }
    settle(() => resolve(output.stdout));
  });
}

/** Collects stdout and stderr as text, stopping the child when either passes its limit. */
function readOutput(
  child: ChildProcess,
  output: ChildOutput,
  stop: (code: AdapterFailureCode) => void,
): void {
  child.stdout?.setEncoding("utf8");
  child.stderr?.setEncoding("utf8");
  child.stdout?.on("data", (chunk: string) => {
    if (output.stopping !== null) return;
    output.stdout += chunk;
    if (output.stdout.length > ADAPTER_LIMITS.stdoutChars) stop("stdout_limit");
  });
  child.stderr?.on("data", (chunk: string) => {
    if (output.stopping !== null) return;
    output.stderr += chunk;
    if (output.stderr.length > ADAPTER_LIMITS.stderrChars) stop("stderr_limit");
  });
}
