/**
 * `fabench discover-call run`: the I/O shell around the Discover → Call runner. It checks the whole
 * command line, the task set, the API's base URL and key and the adapter before the first request —
 * a bad input sends nothing and leaves no file — then takes the run file's write lock, resumes from
 * it if asked, runs the trials and makes the final, atomic write that fills in the observed
 * revisions.
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
  checkProvenance,
  createDiscoverCallApi,
  createModelAdapter,
  finalizeRecords,
  MAX_DISCOVERY_LIMIT,
  MAX_TRIALS,
  PENDING,
  parseAdapterSpec,
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
  const { model, taskSet, api, adapter, metadata } = prepare(options, io.env ?? {}, deps);
  const out = options.output;
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
    const plan = planTrials(taskSet.tasks, options.trials);
    const resumed = resume(options, plan, model, metadata, io);
    const finished = new Set(resumed.kept.map((r) => trialKey(r.task_id, r.trial)));
    const pending = plan.filter((p) => !finished.has(trialKey(p.task.id, p.trial)));
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
        { concurrency: options.concurrency, maxCalls: options.maxCalls ?? null },
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
    return conclude(options, io, { planned: plan.length, kept: resumed.kept.length, outcome });
  } finally {
    lock.release();
  }
}

/** The kept records of an earlier run, rewritten as this run holds them (observed fields pending). */
function resume(
  options: DiscoverCallRunOptions,
  plan: ReturnType<typeof planTrials>,
  model: string,
  metadata: RawMetadata,
  io: CliIo,
): ResumeState {
  const none: ResumeState = { kept: [], tornBytes: 0, seen: { api: [], catalog: [] } };
  if (!options.resume || !existsSync(options.output)) return none;
  const file = options.output;
  const state = readResumeState({ file, bytes: readBytes(file, "run"), plan, model, metadata });
  if (state.tornBytes > 0)
    io.err(`${file}: dropped a cut-off last line (${state.tornBytes} bytes) left by an interrupted run\n`);
  rewriteRecords(file, pendingRecords(state.kept));
  return state;
}

interface Totals {
  readonly planned: number;
  readonly kept: number;
  readonly outcome: RunOutcome;
}

function conclude(options: DiscoverCallRunOptions, io: CliIo, { planned, kept, outcome }: Totals): number {
  const { records, calls, stopped } = outcome;
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
      : "interrupted";
  io.err(`${why}; ${left} trial(s) left; continue with the same command and --resume\n`);
  return stopped === "interrupted" ? 130 : EXIT.failed;
}
