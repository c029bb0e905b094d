/**
 * `fabench discover-call run`: the I/O shell around the Discover → Call runner. It checks the whole
 * command line, the task set, the API's base URL and key and the adapter before the first request —
 * a bad input sends nothing and leaves no file — then starts the adapter once (it must start) and
 * sends the API one preflight discover request (it must answer), both before anything is written;
 * then it takes the run file's write lock, resumes from it if asked, runs the trials (stopping when
 * the API stops answering: the circuit breaker) and makes the final, atomic write that fills in the
 * observed revisions.
 *
 * This instrument's guard against spending is its own: a dry run unless `--execute`, and
 * `--max-calls` on billed executes. The #424 prerequisite lock governs answer inference only and
 * plays no part here.
 */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import {
  acquireWriteLock,
  checkOutput,
  makeFolders,
  readBytes,
  toolRevision,
  toolRoot,
  usageError,
  writeFailure,
} from "../core/index.ts";
import {
  type Adapter,
  adapterEnvironment,
  checkBound,
  checkLane,
  checkProcessAdapter,
  checkProvenance,
  createDiscoverCallApi,
  createModelAdapter,
  DEFAULT_API_TIMEOUT_MS,
  DEFAULT_BREAKER_TRIALS,
  finalizeRecords,
  MAX_DISCOVERY_LIMIT,
  MAX_TRIALS,
  PENDING,
  parseAdapterSpec,
  preflightApi,
  parseTaskSet,
  pendingRecords,
  planTrials,
  processAdapter,
  type RawMetadata,
  type RawRecord,
  RecordAppender,
  readResumeState,
  type ResumeState,
  resolveApiKey,
  resolveBaseUrl,
  resolveToolkitRevision,
  type RunOutcome,
  rewriteRecords,
  runTrials,
  type ToolkitCheckout,
  trialKey,
  UNREPORTED,
} from "../discover-call/index.ts";
import { DEFAULT_RETRY, realTiming } from "../providers/index.ts";
import { type CliIo, EXIT } from "./io.ts";
import { progressReporter } from "./progress.ts";

export interface DiscoverCallRunOptions {
  readonly model: string;
  readonly lane: string;
  readonly tasks: string;
  readonly adapter: string;
  readonly adapterArg: readonly string[];
  readonly adapterRevision: string;
  readonly modelRevision?: string;
  readonly toolkitRevision?: string;
  readonly trials: number;
  /** The discovery limit. */
  readonly limit: number;
  readonly execute: boolean;
  readonly adapterTimeoutMs: number;
  /** Time limit of one Discover → Call API request, headers and body (default 120,000 ms). */
  readonly requestTimeout?: number;
  /**
   * Consecutive trials failing at the API with one infrastructure code that stop the run, unwritten
   * (default DEFAULT_BREAKER_TRIALS).
   */
  readonly breaker?: number;
  /** The Discover → Call API's base URL (else QVERIS_BASE_URL, else the public API). */
  readonly baseUrl?: string;
  readonly output: string;
  readonly resume: boolean;
  readonly concurrency: number;
  readonly maxCalls?: number;
  /** The built-in model adapters' provider base URL and key variable. */
  readonly adapterBaseUrl?: string;
  readonly adapterApiKeyEnv?: string;
  readonly openaiApi: "chat" | "responses";
}

/** The outside world of a run; tests replace parts of it. */
export interface DiscoverCallRunDeps {
  readonly fetch: typeof fetch;
  readonly now: () => Date;
  readonly sleep: (ms: number) => Promise<void>;
  /** Run ids and session ids: random, independent of each other. */
  readonly newId: () => string;
  /** For the progress line's rate. */
  readonly clock: () => number;
  readonly checkout: ToolkitCheckout;
  readonly runtime: RawMetadata["runtime"];
}

function trackedChanges(): string | null {
  try {
    return execFileSync("git", ["-C", toolRoot(), "status", "--porcelain", "--untracked-files=no"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
  } catch {
    return null;
  }
}

export function realRunDeps(): DiscoverCallRunDeps {
  return {
    fetch: (input, init) => fetch(input, init),
    now: () => new Date(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    newId: randomUUID,
    clock: () => performance.now(),
    checkout: { head: toolRevision, trackedChanges },
    runtime: { node: process.version, platform: process.platform, arch: process.arch },
  };
}

/** Settings of the built-in model adapters: deterministic decoding, room for a parameters object. */
const MODEL_SETTINGS = { temperature: 0, max_output_tokens: 2048, seed: null, prompt_cache: false };

function buildAdapter(
  options: DiscoverCallRunOptions,
  env: Readonly<Record<string, string | undefined>>,
): Adapter {
  const spec = parseAdapterSpec(options.adapter);
  if (spec.kind === "process") {
    if (options.adapterBaseUrl !== undefined || options.adapterApiKeyEnv !== undefined)
      throw usageError(
        "adapter_option_unused",
        "--adapter-base-url and --adapter-api-key-env are for the built-in adapters (anthropic:, openai:, openai-compatible:)",
      );
    return processAdapter({
      command: spec.command,
      args: options.adapterArg,
      env,
      timeoutMs: options.adapterTimeoutMs,
    });
  }
  if (options.adapterArg.length > 0)
    throw usageError("adapter_option_unused", `--adapter-arg is for adapter executables, not ${spec.kind}:`);
  if (spec.kind === "openai-compatible" && options.adapterBaseUrl === undefined)
    throw usageError(
      "missing_base_url",
      "--adapter openai-compatible:MODEL needs --adapter-base-url (including /v1)",
    );
  // The same environment a subprocess adapter gets: the benchmark's own key can never reach a provider.
  const adapterEnv = adapterEnvironment(env);
  const keyName = options.adapterApiKeyEnv;
  if (keyName !== undefined && !(Object.hasOwn(adapterEnv, keyName) && adapterEnv[keyName]))
    throw usageError(
      "missing_api_key",
      Object.hasOwn(env, keyName) && env[keyName]
        ? `--adapter-api-key-env ${keyName}: adapters never get this variable (QVERIS_*, CI and registry credentials are withheld); use a key of the model provider`
        : `--adapter-api-key-env ${keyName}: the variable is not set (or is empty)`,
    );
  return createModelAdapter({
    kind: spec.kind,
    model: spec.model,
    env: adapterEnv,
    ...(options.adapterBaseUrl !== undefined ? { baseUrl: options.adapterBaseUrl } : {}),
    ...(options.adapterApiKeyEnv !== undefined ? { apiKeyEnv: options.adapterApiKeyEnv } : {}),
    openaiApi: options.openaiApi,
    requestTimeoutMs: options.adapterTimeoutMs,
    settings: MODEL_SETTINGS,
    retry: DEFAULT_RETRY,
    timing: realTiming,
  });
}

const apiTimeout = (options: DiscoverCallRunOptions) => options.requestTimeout ?? DEFAULT_API_TIMEOUT_MS;

/**
 * The adapter starts and the API answers, before any record is written or the file is locked: an
 * adapter that cannot start, or an API that is not there, would otherwise fail every trial the
 * same way and exit 0 with nothing measured. The adapter comes first: no API request is sent for
 * a run whose adapter cannot run. Built-in model adapters are checked when they are built (key,
 * base URL); asking their provider anything would be a billed call.
 */
async function checkReachable(
  options: DiscoverCallRunOptions,
  env: Readonly<Record<string, string | undefined>>,
  api: ReturnType<typeof createDiscoverCallApi>,
  deps: DiscoverCallRunDeps,
): Promise<void> {
  const spec = parseAdapterSpec(options.adapter);
  if (spec.kind === "process")
    await checkProcessAdapter({ command: spec.command, args: options.adapterArg, env });
  await preflightApi(api, deps.newId(), apiTimeout(options));
}

/** Every check that needs no file written and no request sent; returns what the run needs. */
function prepare(
  options: DiscoverCallRunOptions,
  env: Readonly<Record<string, string | undefined>>,
  deps: DiscoverCallRunDeps,
) {
  const lane = checkLane(options.lane, options.modelRevision);
  const model = checkProvenance(options.model, "--model");
  checkProvenance(options.adapterRevision, "--adapter-revision");
  if (options.modelRevision !== undefined) checkProvenance(options.modelRevision, "--model-revision");
  checkBound(options.trials, MAX_TRIALS, "--trials");
  checkBound(options.limit, MAX_DISCOVERY_LIMIT, "--limit");
  const toolkitRevision = resolveToolkitRevision(options.toolkitRevision, deps.checkout);
  checkOutput(options.output, {
    inputs: [options.tasks, options.adapter, ...options.adapterArg],
    flag: "--output",
  });
  if (!options.resume && existsSync(options.output))
    throw usageError(
      "output_exists",
      `${options.output} exists; add --resume to continue it, or choose a new --output`,
    );
  const taskSet = parseTaskSet(readBytes(options.tasks, "discover-call"), options.tasks);
  const api = createDiscoverCallApi({
    baseUrl: resolveBaseUrl(options.baseUrl, env),
    apiKey: resolveApiKey(env),
    fetch: deps.fetch,
    sleep: deps.sleep,
    now: () => deps.now().getTime(),
    timeoutMs: apiTimeout(options),
  });
  const adapter = buildAdapter(options, env);
  const metadata: RawMetadata = {
    lane,
    model_revision: options.modelRevision ?? UNREPORTED,
    adapter_revision: options.adapterRevision,
    toolkit_revision: toolkitRevision,
    task_set_sha256: taskSet.sha256,
    api_base_url: api.baseUrl,
    api_revision: PENDING,
    catalog_revision: PENDING,
    catalog_observation_sha256: PENDING,
    runtime: deps.runtime,
    discovery_limit: options.limit,
    execute: options.execute,
  };
  return { model, taskSet, api, adapter, metadata };
}

export async function discoverCallRun(
  options: DiscoverCallRunOptions,
  io: CliIo,
  deps: DiscoverCallRunDeps = realRunDeps(),
): Promise<number> {
  const env = io.env ?? {};
  const { model, taskSet, api, adapter, metadata } = prepare(options, env, deps);
  const out = options.output;
  const plan = planTrials(taskSet.tasks, options.trials);
  const resuming = options.resume && existsSync(out);
  // A new run checks before its folder or lock exists; a resumed one once it knows what is left.
  if (!resuming) await checkReachable(options, env, api, deps);
  try {
    makeFolders(dirname(out));
  } catch (error) {
    throw writeFailure(out, error);
  }
  const lock = acquireWriteLock(out, {
    command: "fabench discover-call run",
    warn: (line) => io.err(`${line}\n`),
  });
  try {
    const resumed = resuming ? readResume(options, plan, model, metadata) : NOTHING_KEPT;
    const finished = new Set(resumed.kept.map((r) => trialKey(r.task_id, r.trial)));
    const pending = plan.filter((p) => !finished.has(trialKey(p.task.id, p.trial)));
    if (resuming) {
      // Nothing is sent for a finished run; a failed check leaves the file as it was.
      if (pending.length > 0) await checkReachable(options, env, api, deps);
      if (resumed.tornBytes > 0)
        io.err(
          `${out}: dropped a cut-off last line (${resumed.tornBytes} bytes) left by an interrupted run\n`,
        );
      rewriteRecords(out, pendingRecords(resumed.kept));
    }
    const report = progressReporter(io, `discover-call run ${out}`, deps.clock, "trials");
    let stopping = false;
    const removeHandler = io.onInterrupt?.(() => {
      stopping = true;
      io.err("\ninterrupt: finishing the trials in flight, then stopping\n");
    });
    const appender = new RecordAppender(out);
    let outcome: RunOutcome;
    try {
      outcome = await runTrials(
        pending,
        { model, metadata },
        {
          concurrency: options.concurrency,
          maxCalls: options.maxCalls ?? null,
          breaker: options.breaker ?? DEFAULT_BREAKER_TRIALS,
        },
        {
          api,
          adapter,
          now: deps.now,
          newRunId: deps.newId,
          newSessionId: deps.newId,
          write: (record) => appender.append(record),
          progress: report,
          shouldStop: () => stopping,
        },
      );
    } finally {
      appender.close();
      removeHandler?.();
    }
    const order = new Map(plan.map((p, i) => [trialKey(p.task.id, p.trial), i]));
    const at = (r: RawRecord) => order.get(trialKey(r.task_id, r.trial)) ?? 0;
    const records = [...resumed.kept, ...outcome.records].sort((a, b) => at(a) - at(b));
    const now = api.revisions();
    const seen = {
      api: [...resumed.seen.api, ...now.api],
      catalog: [...resumed.seen.catalog, ...now.catalog],
    };
    rewriteRecords(out, finalizeRecords(records, seen));
    return conclude(options, io, {
      planned: plan.length,
      kept: resumed.kept.length,
      outcome,
      baseUrl: api.baseUrl,
    });
  } finally {
    lock.release();
  }
}

const NOTHING_KEPT: ResumeState = { kept: [], tornBytes: 0, seen: { api: [], catalog: [] } };

/** The kept records of an earlier run (read only: the caller rewrites them once the run may go on). */
function readResume(
  options: DiscoverCallRunOptions,
  plan: ReturnType<typeof planTrials>,
  model: string,
  metadata: RawMetadata,
): ResumeState {
  const file = options.output;
  return readResumeState({ file, bytes: readBytes(file, "run"), plan, model, metadata });
}

interface Totals {
  readonly planned: number;
  readonly kept: number;
  readonly outcome: RunOutcome;
  readonly baseUrl: string;
}

function conclude(
  options: DiscoverCallRunOptions,
  io: CliIo,
  { planned, kept, outcome, baseUrl }: Totals,
): number {
  const { records, calls, stopped, tripped } = outcome;
  const mode = options.execute
    ? `${calls} billed call(s)`
    : "dry run: no calls (add --execute to call tools)";
  io.out(
    `${options.output}: ${kept + records.length} of ${planned} trial(s) recorded (${records.length} new, ${kept} already finished); ${mode}\n`,
  );
  const failedAtApi = records.filter((r) => r.error?.stage === "api");
  if (records.length > 0 && failedAtApi.length === records.length)
    io.err(
      `warning: every new trial failed at the API (first: ${failedAtApi[0]?.error?.reason_code ?? "unknown"}); check QVERIS_API_KEY and --base-url\n`,
    );
  if (stopped === null) return EXIT.ok;
  const left = planned - kept - records.length;
  const why =
    stopped === "max_calls"
      ? `stopped before the next trial: ${calls} billed call(s) made, the --max-calls limit`
      : stopped === "api_unavailable" && tripped !== null
        ? `stopped: ${tripped.trials} consecutive trials failed at the API at ${baseUrl} with ${tripped.code} (--breaker); they measured the API, not the adapter, so none of them is recorded`
        : "interrupted";
  const resume =
    stopped === "api_unavailable"
      ? "once the API answers again, continue with the same command and --resume"
      : "continue with the same command and --resume";
  io.err(`${why}; ${left} trial(s) left; ${resume}\n`);
  return stopped === "interrupted" ? 130 : EXIT.failed;
}
