/**
 * The adapter of a `discover-call run`, from its command-line options: a subprocess adapter or a
 * built-in model adapter, each refusing the options that belong to the other kind. And the check
 * that the adapter starts and the API answers before anything is written.
 */
import { usageError } from "../core/index.ts";
import { DEFAULT_KEY_VARIABLES, DEFAULT_RETRY, realTiming } from "../providers/index.ts";
import { checkProcessAdapter } from "./adapter-check.ts";
import type { Adapter } from "./adapter-protocol.ts";
import { adapterEnvironment, isWithheld, processAdapter } from "./adapters.ts";
import type { DiscoverCallApi } from "./api.ts";
import { preflightApi } from "./api-health.ts";
import { createModelAdapter, parseAdapterSpec } from "./model-adapter.ts";
import { apiTimeout, type DiscoverCallRunDeps, type DiscoverCallRunOptions } from "./run-request.ts";

/** Settings of the built-in model adapters: deterministic decoding, room for a parameters object. */
const MODEL_SETTINGS = { temperature: 0, max_output_tokens: 2048, seed: null, prompt_cache: false };

export function buildAdapter(
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
      passEnv: checkedPassEnv(options),
      timeoutMs: options.adapterTimeoutMs,
    });
  }
  if (options.adapterArg.length > 0 || (options.passEnv ?? []).length > 0)
    throw usageError(
      "adapter_option_unused",
      `--adapter-arg and --pass-env are for adapter executables, not ${spec.kind}: (its key is named by --adapter-api-key-env)`,
    );
  if (spec.kind === "openai-compatible" && options.adapterBaseUrl === undefined)
    throw usageError(
      "missing_base_url",
      "--adapter openai-compatible:MODEL needs --adapter-base-url (including /v1)",
    );
  // Least privilege in process too: the one key variable the provider reads, never a withheld one,
  // so the benchmark's own key can never reach a provider.
  const keyName = options.adapterApiKeyEnv;
  if (keyName !== undefined && isWithheld(keyName))
    throw usageError(
      "missing_api_key",
      `--adapter-api-key-env ${keyName}: adapters never get this variable (QVERIS_*, FABENCH_SERVE_API_KEY, CI and registry credentials are withheld); use a key of the model provider`,
    );
  if (keyName !== undefined && !env[keyName])
    throw usageError(
      "missing_api_key",
      `--adapter-api-key-env ${keyName}: the variable is not set (or is empty)`,
    );
  const providerKey = keyName ?? DEFAULT_KEY_VARIABLES[spec.kind];
  const adapterEnv = adapterEnvironment(env, providerKey === undefined ? [] : [providerKey]);
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

/** `--pass-env` names: a withheld one (the benchmark's own key, CI credentials) is refused, not dropped. */
function checkedPassEnv(options: Pick<DiscoverCallRunOptions, "passEnv">): readonly string[] {
  const names = options.passEnv ?? [];
  const withheld = names.find(isWithheld);
  if (withheld !== undefined)
    throw usageError(
      "withheld_variable",
      `--pass-env ${withheld}: adapters never get this variable (QVERIS_*, FABENCH_SERVE_API_KEY, CI and registry credentials are withheld)`,
    );
  return names;
}

/**
 * The adapter starts and the API answers, before any record is written or the file is locked: an
 * adapter that cannot start, or an API that is not there, would otherwise fail every trial the
 * same way and exit 0 with nothing measured. The adapter comes first: no API request is sent for
 * a run whose adapter cannot run. Built-in model adapters are checked when they are built (key,
 * base URL); asking their provider anything would be a billed call.
 */
export async function checkReachable(
  options: DiscoverCallRunOptions,
  env: Readonly<Record<string, string | undefined>>,
  api: DiscoverCallApi,
  deps: Pick<DiscoverCallRunDeps, "newId">,
): Promise<void> {
  const spec = parseAdapterSpec(options.adapter);
  if (spec.kind === "process")
    await checkProcessAdapter({
      command: spec.command,
      args: options.adapterArg,
      env,
      passEnv: checkedPassEnv(options),
    });
  await preflightApi(api, deps.newId(), apiTimeout(options));
}
