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
import { decodeStrictUtf8, parseBoundedJson, runChild as superviseChild, usageError } from "../core/index.ts";
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

/**
 * What every adapter gets, when set (least privilege, issue #33): what a program needs to start and
 * to find its own login, and nothing that is a credential.
 * - PATH: `#!/usr/bin/env node` and a CLI adapter's model CLI are found on it.
 * - HOME (USERPROFILE, APPDATA, LOCALAPPDATA on Windows): a CLI adapter's model CLI (codex, claude)
 *   reads its existing login from the user's home, which is how the reference adapters authenticate.
 * - LANG, LC_ALL, LC_CTYPE: the text encoding of what a child prints.
 * - TMPDIR (TEMP, TMP on Windows): where a CLI adapter writes its schema file.
 * - TZ: the time zone a date is read in.
 * - SYSTEMROOT, COMSPEC, PATHEXT, WINDIR: Windows cannot start a program or open a socket without them.
 */
export const ADAPTER_BASE_VARIABLES = [
  "PATH",
  "HOME",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TMPDIR",
  "TZ",
  "TEMP",
  "TMP",
  "USERPROFILE",
  "APPDATA",
  "LOCALAPPDATA",
  "SYSTEMROOT",
  "COMSPEC",
  "PATHEXT",
  "WINDIR",
] as const;

/** The variables the reference adapters document reading: which model CLI to run (codex-cli.mjs, claude-cli.mjs). */
export const ADAPTER_DOCUMENTED_VARIABLES = ["CODEX_BIN", "CLAUDE_BIN"] as const;

/** Prefixes (any case) and exact names of variables an adapter never gets, even when named: the benchmark's own keys and CI credentials. */
const WITHHELD_PREFIXES = ["QVERIS_", "ACTIONS_", "GITHUB_", "RUNNER_"];
const WITHHELD_NAMES = new Set([
  "BENCHMARK_PR_TOKEN",
  "FABENCH_SERVE_API_KEY",
  "GH_TOKEN",
  "GITHUB_TOKEN",
  "NODE_AUTH_TOKEN",
  "NPM_TOKEN",
  "PYPI_API_TOKEN",
]);

/** Whether an adapter may never see a variable, whoever names it. */
export function isWithheld(name: string): boolean {
  const upper = name.toUpperCase();
  return WITHHELD_PREFIXES.some((prefix) => upper.startsWith(prefix)) || WITHHELD_NAMES.has(upper);
}

/**
 * The child's environment: the base variables, the adapters' documented ones and those named by
 * `--pass-env` (a provider key the adapter needs), never a withheld one. Nothing else of the
 * parent's passes: no provider key that was not named.
 */
export function adapterEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  passEnv: readonly string[] = [],
): Record<string, string> {
  const named = new Set<string>([...ADAPTER_BASE_VARIABLES, ...ADAPTER_DOCUMENTED_VARIABLES, ...passEnv]);
  const child: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    const upper = name.toUpperCase();
    // Windows spells variables in any case (Path, SystemRoot); elsewhere the exact name is named.
    const listed = named.has(name) || (process.platform === "win32" && named.has(upper));
    if (listed && value !== undefined && !isWithheld(name)) child[name] = value;
  }
  return child;
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
  /** Variables named by `--pass-env`, passed on top of the base ones. */
  readonly passEnv?: readonly string[];
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
  const env = adapterEnvironment(options.env, options.passEnv);
  const start = deps.spawn ?? (spawn as SpawnProcess);
  return (request) =>
    runChild(start, options, env, JSON.stringify(request)).then((stdout) => {
      // Checked for depth before parsing, as every reply fabench reads: too deep is not JSON it accepts.
      const parsed = parseBoundedJson(stdout.trim());
      if (!parsed.ok) throw adapterFailure("invalid_json");
      return parsed.value;
    });
}

/**
 * Runs the child to its end under the supervisor (own process group, killed with all it started)
 * and gives its stdout, or rejects with the first failure found. Limits are the protocol's
 * characters; bytes are capped at 4 per character so memory stays bounded before decoding.
 */
async function runChild(
  start: SpawnProcess,
  options: ProcessAdapterOptions,
  env: Record<string, string>,
  input: string,
): Promise<string> {
  const outcome = await superviseChild({
    command: options.command,
    args: options.args,
    env,
    input,
    timeoutMs: options.timeoutMs ?? ADAPTER_LIMITS.timeoutMs,
    killGraceMs: options.killGraceMs ?? ADAPTER_LIMITS.killGraceMs,
    maxStdoutBytes: 4 * ADAPTER_LIMITS.stdoutChars,
    maxStderrBytes: 4 * ADAPTER_LIMITS.stderrChars,
    keepStderrBytes: 4 * ADAPTER_LIMITS.stderrChars,
    spawn: start,
  });
  if (outcome.kind === "start_failed") throw adapterFailure("start_failed");
  // No interrupt signal is given to an adapter (the run stops between trials), so a stop is a limit.
  if (outcome.kind === "stopped")
    throw adapterFailure(outcome.reason === "interrupted" ? "timeout" : outcome.reason);
  const stdout = decodeStrictUtf8(outcome.stdout);
  if ((stdout ?? outcome.stdout.toString("utf8")).length > ADAPTER_LIMITS.stdoutChars)
    throw adapterFailure("stdout_limit");
  // stderr is read for the marker only, leniently: it is never stored or shown.
  const stderr = outcome.stderr.bytes().toString("utf8");
  if (stderr.length > ADAPTER_LIMITS.stderrChars) throw adapterFailure("stderr_limit");
  if (outcome.code !== 0) throw adapterFailure(reportedAdapterCode(stderr) ?? "process_exit");
  // Bytes that are not UTF-8 are not the JSON value the protocol asks for.
  if (stdout === null) throw adapterFailure("invalid_json");
  return stdout;
}
