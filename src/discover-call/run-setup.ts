/**
 * A `discover-call run` planned: every check that needs no file written and no request sent (the
 * command line, the task set, the API's base URL and key, the adapter), then what the run needs —
 * the API client, the adapter, the records' metadata, the trials in plan order and the settings.
 * A bad input throws here, so it sends nothing and leaves no file.
 */
import { existsSync } from "node:fs";
import { checkOutput, readBytes, usageError } from "../core/index.ts";
import type { Adapter } from "./adapter-protocol.ts";
import { createDiscoverCallApi, type DiscoverCallApi } from "./api.ts";
import { resolveApiKey } from "./api-key.ts";
import { resolveBaseUrl } from "./base-url.ts";
import type { RawMetadata } from "./records.ts";
import { buildAdapter } from "./run-adapter.ts";
import { runMetadata } from "./run-metadata.ts";
import {
  checkBound,
  checkLane,
  checkProvenance,
  MAX_DISCOVERY_LIMIT,
  MAX_TRIALS,
  resolveToolkitRevision,
} from "./run-options.ts";
import { DEFAULT_BREAKER_TRIALS, planTrials, type RunSettings } from "./run.ts";
import { apiTimeout, type DiscoverCallRunDeps, type DiscoverCallRunOptions } from "./run-request.ts";
import { parseTaskSet, type TaskSet } from "./tasks.ts";
import type { PlannedTrial } from "./trial.ts";

export interface PreparedRun {
  readonly model: string;
  readonly taskSet: TaskSet;
  readonly api: DiscoverCallApi;
  readonly adapter: Adapter;
  readonly metadata: RawMetadata;
  /** Every trial of the run, in plan order. */
  readonly plan: readonly PlannedTrial[];
  readonly settings: RunSettings;
}

/** Every check that needs no file written and no request sent; returns what the run needs. */
export function prepareRun(
  options: DiscoverCallRunOptions,
  env: Readonly<Record<string, string | undefined>>,
  deps: DiscoverCallRunDeps,
): PreparedRun {
  const lane = checkLane(options.lane, options.modelRevision);
  const model = checkProvenance(options.model, "--model");
  checkProvenance(options.adapterRevision, "--adapter-revision");
  if (options.modelRevision !== undefined) checkProvenance(options.modelRevision, "--model-revision");
  checkBound(options.trials, MAX_TRIALS, "--trials");
  checkBound(options.limit, MAX_DISCOVERY_LIMIT, "--limit");
  // The API's address and key before any file is read: a missing key comes back at once.
  const baseUrl = resolveBaseUrl(options.baseUrl, env);
  const apiKey = resolveApiKey(env);
  const toolkitRevision = resolveToolkitRevision(options.toolkitRevision, deps.checkout);
  checkOutput(options.output, {
    inputs: [options.tasks, options.adapter, ...options.adapterArg],
    flag: "--out",
  });
  if (!options.resume && existsSync(options.output))
    throw usageError(
      "output_exists",
      `${options.output} exists; add --resume to continue it, or choose a new --out`,
    );
  const taskSet = parseTaskSet(readBytes(options.tasks, "discover-call"), options.tasks);
  const api = createDiscoverCallApi({
    baseUrl,
    apiKey,
    fetch: deps.fetch,
    sleep: deps.sleep,
    now: () => deps.now().getTime(),
    timeoutMs: apiTimeout(options),
  });
  const adapter = buildAdapter(options, env);
  const metadata = runMetadata(
    options,
    { lane, toolkitRevision, taskSetSha256: taskSet.sha256, apiBaseUrl: api.baseUrl },
    deps,
  );
  const plan = planTrials(taskSet.tasks, options.trials);
  return { model, taskSet, api, adapter, metadata, plan, settings: runSettings(options) };
}

function runSettings(options: DiscoverCallRunOptions): RunSettings {
  return {
    concurrency: options.concurrency,
    maxCalls: options.maxCalls ?? null,
    breaker: options.breaker ?? DEFAULT_BREAKER_TRIALS,
  };
}
