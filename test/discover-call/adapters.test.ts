import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { FabenchError } from "../../src/core/index.ts";
import {
  ADAPTER_FAILURE_MESSAGE,
  type Adapter,
  type AdapterRequest,
  adapterRequestSchema,
  parameterizeRequest,
  type RequestContext,
  readSelectAnswer,
  selectRequest,
} from "../../src/discover-call/adapter-protocol.ts";
import {
  adapterEnvironment,
  processAdapter,
  reportedAdapterCode,
  type SpawnProcess,
} from "../../src/discover-call/adapters.ts";
import { createModelAdapter, parseAdapterSpec } from "../../src/discover-call/model-adapter.ts";
import {
  parameterResponseSchema,
  readParameterAnswer,
  validateParameters,
} from "../../src/discover-call/parameter-schema.ts";
import { startFakeProvider } from "../helpers/fake-providers.ts";
import { useTempDir } from "../helpers/temp.ts";
import {
  hasReference,
  REFERENCE_TASK,
  referenceHarness,
  referencePath,
  referenceTrial,
} from "./fixtures/reference.ts";
import { type StructuredProvider, startStructuredProvider } from "./fixtures/structured-provider.ts";

const FIXTURE = fileURLToPath(new URL("./fixtures/adapter.mjs", import.meta.url));
const FAKE_CLI = fileURLToPath(new URL("./fixtures/fake-model-cli.mjs", import.meta.url));
const CONTEXT: RequestContext = { model: "model-a", trial: 2, taskSetSha256: "a".repeat(64) };

const DISCOVERED = {
  search_id: "search-secret-1",
  total: 2,
  results: [
    { tool_id: "unrelated.tool", capability: "news", score: 0.9, search_rank: 1 },
    {
      tool_id: "weather.forecast",
      capability: "weather",
      cost_class: "low",
      reliability: 0.99,
      as_of_support: true,
      provider_secret: "x",
    },
  ],
};
const TOOL = {
  tool_id: "weather.forecast",
  name: "Forecast",
  description: "Daily forecast",
  params: [
    { name: "city", type: "string", required: true, description: "City" },
    { name: "units", type: "string", required: false, enum: ["metric", "imperial"] },
  ],
  examples: [{ city: "Paris" }],
  stats: { latency_ms: 30 },
};

/** The failure code of a rejected adapter call, checking it carries only the fixed message. */
async function failureCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (!(error instanceof FabenchError)) throw error;
    expect(error.stage).toBe("adapter");
    expect(error.message).toBe(ADAPTER_FAILURE_MESSAGE);
    expect(JSON.stringify(error.problems)).not.toContain("private");
    return error.code;
  }
  throw new Error("expected the adapter to fail");
}

/** A task whose prompt names a fixture behaviour. */
const task = (behaviour: string) => ({
  id: `task-${behaviour}`,
  prompt: `Weather for London fixture:${behaviour}`,
});

function fixtureAdapter(options: { args?: string[]; env?: Record<string, string>; timeoutMs?: number } = {}) {
  return processAdapter({
    command: process.execPath,
    args: [FIXTURE, ...(options.args ?? [])],
    env: { PATH: process.env["PATH"] ?? "", ...options.env },
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
}

describe("adapter requests", () => {
  it("asks select with the task's id and prompt and the discovery results cut to the listed fields", () => {
    const request = selectRequest(REFERENCE_TASK, DISCOVERED, CONTEXT);
    const input = {
      task_id: "weather-london",
      prompt: "Weather for London",
      discovery: {
        results: [
          { tool_id: "unrelated.tool", capability: "news" },
          {
            tool_id: "weather.forecast",
            capability: "weather",
            cost_class: "low",
            reliability: 0.99,
            as_of_support: true,
          },
        ],
      },
    };
    expect(JSON.stringify(request)).toBe(
      JSON.stringify({
        adapter_protocol_version: 1,
        stage: "select",
        model: "model-a",
        trial: 2,
        task_set_sha256: "a".repeat(64),
        input,
        messages: [
          {
            role: "system",
            content:
              "Select one tool from the discovery results that best fulfills the user request. Return JSON only.",
          },
          { role: "user", content: JSON.stringify(input) },
        ],
        response_schema: {
          type: "object",
          additionalProperties: false,
          required: ["tool_id"],
          properties: { tool_id: { type: "string" } },
        },
      }),
    );
    expect(adapterRequestSchema.safeParse(request).success).toBe(true);
  });

  it("asks parameterize with a copy of the inspected tool cut to the listed fields and its strict schema", () => {
    const request = parameterizeRequest(REFERENCE_TASK, TOOL, CONTEXT);
    const { stats: _, ...visible } = TOOL;
    expect(request.input).toEqual({
      task_id: "weather-london",
      prompt: "Weather for London",
      selected_tool: visible,
    });
    expect(Object.keys((request.input as { selected_tool: object }).selected_tool)).toEqual([
      "tool_id",
      "name",
      "description",
      "params",
      "examples",
    ]);
    expect(request.messages[0].content).toBe(
      "Construct valid parameters for the inspected tool that fulfill the user request. Return JSON only.",
    );
    expect(request.messages[1].content).toBe(JSON.stringify(request.input));
    expect(JSON.stringify(request.response_schema)).toBe(JSON.stringify(parameterResponseSchema(TOOL)));
    expect(adapterRequestSchema.safeParse(request).success).toBe(true);
  });

  it("never shows the adapter the discover query, constraints, reference or search id", () => {
    const text = JSON.stringify([
      selectRequest(REFERENCE_TASK, DISCOVERED, CONTEXT),
      parameterizeRequest(REFERENCE_TASK, TOOL, CONTEXT),
    ]);
    for (const hidden of [
      "weather forecast API",
      "constraints",
      "aliases",
      "candidates",
      "search-secret-1",
      "search_id",
    ])
      expect(text).not.toContain(hidden);
  });

  it("checks answers against the tool as inspected, whatever the adapter does to its copy", () => {
    const tool = structuredClone(TOOL);
    const request = parameterizeRequest(REFERENCE_TASK, tool, CONTEXT);
    const copy = (request.input as unknown as { selected_tool: { params: Array<{ required: boolean }> } })
      .selected_tool;
    (copy.params[0] as { required: boolean }).required = false;
    expect(tool.params[0]?.required).toBe(true);
    expect(() => validateParameters(tool, readParameterAnswer({ parameters: {} }))).toThrow(
      "Adapter omitted required parameter city",
    );
  });

  it("refuses to ask for parameters when no strict schema can be built", () => {
    expect(() =>
      parameterizeRequest(
        REFERENCE_TASK,
        { tool_id: "t", params: [{ name: "body", type: "object", required: true }] },
        CONTEXT,
      ),
    ).toThrow(expect.objectContaining({ stage: "parameterize", code: "unsupported_parameter_schema" }));
  });

  it("reads the selected tool id, trimmed, and fails select without one", () => {
    expect(readSelectAnswer({ tool_id: " weather.forecast " })).toBe("weather.forecast");
    for (const answer of [
      {},
      { tool_id: "" },
      { tool_id: "  " },
      { tool_id: 7 },
      null,
      "weather.forecast",
      [],
    ])
      expect(() => readSelectAnswer(answer)).toThrow(
        expect.objectContaining({
          stage: "select",
          code: "missing_tool_id",
          message: "Adapter did not return a non-empty tool_id",
        }),
      );
  });

  it.skipIf(!hasReference)("fails select where the reference harness does, with its message", async () => {
    const harness = await referenceHarness();
    for (const selectAnswer of [
      {},
      { tool_id: " " },
      { tool_id: ["x"] },
      null,
      5,
      { tool_id: " weather.forecast " },
    ]) {
      const { record } = await referenceTrial(
        harness,
        TOOL,
        { parameters: { city: "London" } },
        { selectAnswer },
      );
      let ours: unknown = null;
      try {
        ours = readSelectAnswer(selectAnswer);
      } catch (error) {
        const e = error as FabenchError;
        ours = { stage: e.stage, reason_code: e.code, message: e.message };
      }
      const theirs = (record["selection"] as { tool_id: unknown }).tool_id ?? record["error"];
      expect({ selectAnswer, ours }).toEqual({ selectAnswer, ours: theirs });
    }
  });

  it.skipIf(!hasReference)("serialises both requests exactly as the reference harness does", async () => {
    const harness = await referenceHarness();
    const discoveries = [
      DISCOVERED,
      { search_id: "s", results: [null, "text", 7, { tool_id: "weather.forecast", capability: null }] },
      {
        search_id: "s",
        results: [{ as_of_support: "2026", tool_id: "weather.forecast", reliability: undefined }],
      },
    ];
    for (const discovered of discoveries) {
      const { payloads } = await referenceTrial(
        harness,
        TOOL,
        { parameters: { city: "London" } },
        { discovered },
      );
      const context = { model: "model-a", trial: 1, taskSetSha256: "f".repeat(64) };
      expect(payloads).toEqual([
        JSON.stringify(selectRequest(REFERENCE_TASK, discovered, context)),
        JSON.stringify(parameterizeRequest(REFERENCE_TASK, TOOL, context)),
      ]);
    }
  });
});

describe("the adapter's environment and reported codes", () => {
  it("gives only the base variables and those named, never a withheld one even when named", () => {
    const parent = {
      PATH: "/bin",
      HOME: "/home/u",
      LANG: "C.UTF-8",
      TZ: "UTC",
      TMPDIR: "/tmp",
      CODEX_BIN: "/opt/codex",
      QVERIS_API_KEY: "x",
      qveris_lowercase: "x",
      FABENCH_SERVE_API_KEY: "x",
      GITHUB_TOKEN: "x",
      GITHUB_ENV: "x",
      ACTIONS_RUNTIME_TOKEN: "x",
      RUNNER_TEMP: "x",
      BENCHMARK_PR_TOKEN: "x",
      GH_TOKEN: "x",
      gh_token: "x",
      NODE_AUTH_TOKEN: "x",
      NPM_TOKEN: "x",
      PYPI_API_TOKEN: "x",
      OPENAI_API_KEY: "named",
      ANTHROPIC_API_KEY: "not named",
      NPM_CONFIG_CACHE: "not named",
      UNSET: undefined,
    };
    const base = {
      PATH: "/bin",
      HOME: "/home/u",
      LANG: "C.UTF-8",
      TZ: "UTC",
      TMPDIR: "/tmp",
      CODEX_BIN: "/opt/codex",
    };
    expect(adapterEnvironment(parent)).toEqual(base);
    expect(
      adapterEnvironment(parent, [
        "OPENAI_API_KEY",
        "FABENCH_SERVE_API_KEY",
        "QVERIS_API_KEY",
        "GH_TOKEN",
        "UNSET",
      ]),
    ).toEqual({ ...base, OPENAI_API_KEY: "named" });
  });

  it("reads only listed codes from the error marker, as whole tokens", () => {
    expect(reportedAdapterCode("detail\nQVERIS_BENCHMARK_ADAPTER_ERROR=tool_use_rejected\n")).toBe(
      "tool_use_rejected",
    );
    expect(reportedAdapterCode("QVERIS_BENCHMARK_ADAPTER_ERROR=missing_reference_candidate")).toBe(
      "missing_reference_candidate",
    );
    expect(reportedAdapterCode("QVERIS_BENCHMARK_ADAPTER_ERROR=timeout")).toBeNull();
    expect(reportedAdapterCode("QVERIS_BENCHMARK_ADAPTER_ERROR=model_failed_badly")).toBeNull();
    expect(
      reportedAdapterCode("QVERIS_BENCHMARK_ADAPTER_ERROR=nope\nQVERIS_BENCHMARK_ADAPTER_ERROR=cli_failed"),
    ).toBe("cli_failed");
    expect(reportedAdapterCode("model_failed")).toBeNull();
  });
});

describe("subprocess adapters", () => {
  it("runs the executable without a shell, each argument one argv entry, with the withheld variables removed", async () => {
    const seen: Array<{ command: string; args: string[]; shell: unknown }> = [];
    const recording: SpawnProcess = (command, args, options) => {
      seen.push({ command, args, shell: options.shell });
      return spawn(command, args, options);
    };
    const weird = "a b; echo pwned $(id) > /tmp/x *";
    const adapter = processAdapter(
      {
        command: process.execPath,
        args: [FIXTURE, "--flag", weird],
        env: {
          PATH: process.env["PATH"] ?? "",
          QVERIS_API_KEY: "k",
          FABENCH_SERVE_API_KEY: "s",
          GITHUB_TOKEN: "t",
          OPENAI_API_KEY: "m",
          ANTHROPIC_API_KEY: "a",
        },
        passEnv: ["OPENAI_API_KEY"],
      },
      { spawn: recording },
    );
    const request = selectRequest(task("echo"), DISCOVERED, CONTEXT);
    const answer = (await adapter(request)) as {
      tool_id: string;
      received: unknown;
      argv: string[];
      env: string[];
    };
    expect(seen).toEqual([{ command: process.execPath, args: [FIXTURE, "--flag", weird], shell: false }]);
    expect(answer.argv).toEqual(["--flag", weird]);
    expect(answer.received).toEqual(request);
    // Only what it is named: the base, and the one provider key passed.
    expect([...answer.env].sort()).toEqual(["OPENAI_API_KEY", "PATH"]);
    expect(answer.tool_id).toBe("unrelated.tool");
  });

  it("returns the fixture's correct answers, which pass every check", async () => {
    const adapter = fixtureAdapter();
    expect(await adapter(selectRequest(task("correct"), DISCOVERED, CONTEXT))).toEqual({
      tool_id: "unrelated.tool",
    });
    const answer = await adapter(parameterizeRequest(task("correct"), TOOL, CONTEXT));
    expect(answer).toEqual({ parameters: { city: "fixture", units: null } });
    expect(() => validateParameters(TOOL, readParameterAnswer(answer))).not.toThrow();
  });

  it("gives the answers that fail select and parameterize as the fixture documents", async () => {
    const adapter = fixtureAdapter();
    expect(await adapter(selectRequest(task("missing_tool_id"), DISCOVERED, CONTEXT))).toEqual({});
    expect(await adapter(selectRequest(task("ungrounded_tool_id"), DISCOVERED, CONTEXT))).toEqual({
      tool_id: "fixture.not-discovered",
    });
    const invalid = await adapter(parameterizeRequest(task("invalid_parameters"), TOOL, CONTEXT));
    expect(() => readParameterAnswer(invalid)).toThrow(
      expect.objectContaining({ code: "invalid_parameters" }),
    );
    const values = await adapter(parameterizeRequest(task("invalid_parameter_values"), TOOL, CONTEXT));
    expect(() => validateParameters(TOOL, readParameterAnswer(values))).toThrow(
      expect.objectContaining({ code: "invalid_parameter_values" }),
    );
  });

  it.each([
    ["error_marker", "model_failed"],
    ["unknown_marker", "process_exit"],
    ["process_exit", "process_exit"],
    ["invalid_json", "invalid_json"],
    ["stdout_limit", "stdout_limit"],
    ["stderr_limit", "stderr_limit"],
  ])("records the fixture's %s as adapter/%s, without its stderr", async (behaviour, code) => {
    expect(await failureCode(fixtureAdapter()(selectRequest(task(behaviour), DISCOVERED, CONTEXT)))).toBe(
      code,
    );
  });

  it("fails the stage the directive names and answers the other", async () => {
    const adapter = fixtureAdapter();
    const named = task("invalid_json@parameterize");
    expect(await adapter(selectRequest(named, DISCOVERED, CONTEXT))).toEqual({ tool_id: "unrelated.tool" });
    expect(await failureCode(adapter(parameterizeRequest(named, TOOL, CONTEXT)))).toBe("invalid_json");
  });

  it("stops a child that never answers, as a timeout", async () => {
    const adapter = fixtureAdapter({ timeoutMs: 50 });
    expect(await failureCode(adapter(selectRequest(task("timeout"), DISCOVERED, CONTEXT)))).toBe("timeout");
  });

  it("kills a child that ignores SIGTERM once the grace is over", async () => {
    const children: ChildProcess[] = [];
    const adapter = processAdapter(
      { command: process.execPath, args: [FIXTURE], env: {}, timeoutMs: 500, killGraceMs: 20 },
      {
        spawn: (command, args, options) => {
          const child = spawn(command, args, options);
          children.push(child);
          return child;
        },
      },
    );
    const code = await failureCode(
      adapter(selectRequest(task("timeout_ignoring_sigterm"), DISCOVERED, CONTEXT)),
    );
    expect(code).toBe("timeout");
    // The stage ends only when the child has closed, so it is gone by now.
    expect(children[0]?.exitCode !== null || children[0]?.signalCode !== null).toBe(true);
  });

  it("refuses an answer nested deeper than 64 levels as invalid_json, without parsing it", async () => {
    const deep = (depth: number) =>
      processAdapter({
        command: process.execPath,
        args: ["-e", `process.stdout.write("[".repeat(${depth}) + '"t"' + "]".repeat(${depth}))`],
        env: { PATH: process.env["PATH"] ?? "" },
      });
    const request = selectRequest(task("correct"), DISCOVERED, CONTEXT);
    expect(await failureCode(deep(100_000)(request))).toBe("invalid_json");
    expect(await failureCode(deep(65)(request))).toBe("invalid_json");
    // 64 levels is JSON the adapter may print: it is parsed and read (select wants a string id).
    expect(await deep(64)(request)).toEqual(JSON.parse(`${"[".repeat(64)}"t"${"]".repeat(64)}`));
  });

  it("reports an executable that cannot be started", async () => {
    const missing = processAdapter({ command: "/nonexistent/fabench-adapter", args: [], env: {} });
    expect(await failureCode(missing(selectRequest(task("correct"), DISCOVERED, CONTEXT)))).toBe(
      "start_failed",
    );
    const throwing = processAdapter(
      { command: "adapter", args: [], env: {} },
      {
        spawn: () => {
          throw new Error("EACCES private");
        },
      },
    );
    expect(await failureCode(throwing(selectRequest(task("correct"), DISCOVERED, CONTEXT)))).toBe(
      "start_failed",
    );
  });

  it("refuses an empty executable and a time limit that is not a positive whole number", () => {
    expect(() => processAdapter({ command: "", args: [], env: {} })).toThrow(
      expect.objectContaining({ code: "missing_adapter" }),
    );
    expect(() => processAdapter({ command: "a", args: [], env: {}, timeoutMs: 0 })).toThrow(
      expect.objectContaining({ code: "bad_adapter_timeout" }),
    );
  });
});

describe.skipIf(!hasReference)("the reference implementation's adapters, unmodified", () => {
  const dir = useTempDir();
  const tasksFile = () => {
    const path = join(dir(), "tasks.jsonl");
    const line = {
      ...REFERENCE_TASK,
      reference: {
        candidates: [{ tool_id: "weather.forecast", parameters: { city: "London", units: "metric" } }],
      },
    };
    writeFileSync(path, `${JSON.stringify(line)}\n`);
    return { path, sha256: createHash("sha256").update(readFileSync(path)).digest("hex") };
  };

  it("reference.mjs selects and parameterizes a task's reference candidate", async () => {
    const { path, sha256 } = tasksFile();
    const adapter = processAdapter({
      command: process.execPath,
      args: [referencePath("adapters", "reference.mjs"), path],
      env: { PATH: process.env["PATH"] ?? "" },
    });
    const context = { ...CONTEXT, taskSetSha256: sha256 };
    expect(await adapter(selectRequest(REFERENCE_TASK, DISCOVERED, context))).toEqual({
      tool_id: "weather.forecast",
    });
    const answer = await adapter(parameterizeRequest(REFERENCE_TASK, TOOL, context));
    expect(answer).toEqual({ parameters: { city: "London", units: "metric" } });
    expect(() => validateParameters(TOOL, readParameterAnswer(answer))).not.toThrow();
  });

  it("reference.mjs reports a task-set mismatch and a missing candidate through the error marker", async () => {
    const { path, sha256 } = tasksFile();
    const adapter = processAdapter({
      command: process.execPath,
      args: [referencePath("adapters", "reference.mjs"), "--tasks", path],
      env: {},
    });
    const wrongSet = selectRequest(REFERENCE_TASK, DISCOVERED, { ...CONTEXT, taskSetSha256: "0".repeat(64) });
    expect(await failureCode(adapter(wrongSet))).toBe("task_set_mismatch");
    const other = parameterizeRequest(
      REFERENCE_TASK,
      { ...TOOL, tool_id: "unrelated.tool" },
      { ...CONTEXT, taskSetSha256: sha256 },
    );
    // The reference harness records this as missing_reference (its pattern stops at the prefix);
    // fabench keeps the whole listed code.
    expect(await failureCode(adapter(other))).toBe("missing_reference_candidate");
  });

  /** codex-cli.mjs or claude-cli.mjs against the fake CLI, with what the fake saw. */
  async function cliAdapter(script: string, bin: string, extraEnv: Record<string, string> = {}) {
    const log = join(dir(), `${script}.log`);
    const adapter = processAdapter({
      command: process.execPath,
      args: [referencePath("adapters", script)],
      env: {
        PATH: process.env["PATH"] ?? "",
        [bin]: FAKE_CLI,
        FAKE_MODEL_CLI_LOG: log,
        QVERIS_API_KEY: "benchmark-key",
        GITHUB_TOKEN: "ci-token",
        OPENAI_API_KEY: "model-key",
        ...extraEnv,
      },
      // The fake CLI's own variables and the model key reach it only by being named.
      passEnv: ["FAKE_MODEL_CLI_LOG", "FAKE_MODEL_CLI_MODE", "OPENAI_API_KEY"],
    });
    const seen = () =>
      readFileSync(log, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { argv: string[]; stdin: string; schema: unknown; env: string[] });
    return { adapter, seen };
  }

  function checkCanonical(request: AdapterRequest, seen: { stdin: string; schema: unknown; env: string[] }) {
    expect(seen.stdin).toBe(request.messages[1].content);
    expect(JSON.stringify(seen.schema)).toBe(JSON.stringify(request.response_schema));
    expect(seen.env).toContain("OPENAI_API_KEY");
    expect(seen.env.filter((name) => /^(QVERIS_|GITHUB_)/i.test(name))).toEqual([]);
  }

  it("codex-cli.mjs passes the canonical messages and schema to the CLI, and its answer back", async () => {
    const { adapter, seen } = await cliAdapter("codex-cli.mjs", "CODEX_BIN");
    const select = selectRequest(REFERENCE_TASK, DISCOVERED, CONTEXT);
    const parameterize = parameterizeRequest(REFERENCE_TASK, TOOL, CONTEXT);
    expect(await adapter(select)).toEqual({ tool_id: "unrelated.tool" });
    expect(await adapter(parameterize)).toEqual({ parameters: { city: "fake", units: null } });
    const [first, second] = seen();
    checkCanonical(select, first!);
    checkCanonical(parameterize, second!);
    expect(first!.argv[first!.argv.indexOf("--model") + 1]).toBe("model-a");
    expect(first!.argv).toContain(`developer_instructions=${JSON.stringify(select.messages[0].content)}`);
  });

  it("codex-cli.mjs refuses a CLI that uses a tool, and fabench records its reported code", async () => {
    const { adapter } = await cliAdapter("codex-cli.mjs", "CODEX_BIN", { FAKE_MODEL_CLI_MODE: "tool_use" });
    expect(await failureCode(adapter(selectRequest(REFERENCE_TASK, DISCOVERED, CONTEXT)))).toBe(
      "tool_use_rejected",
    );
  });

  it("claude-cli.mjs passes the canonical messages and schema to the CLI, and its answer back", async () => {
    const { adapter, seen } = await cliAdapter("claude-cli.mjs", "CLAUDE_BIN");
    const select = selectRequest(REFERENCE_TASK, DISCOVERED, CONTEXT);
    const parameterize = parameterizeRequest(REFERENCE_TASK, TOOL, CONTEXT);
    expect(await adapter(select)).toEqual({ tool_id: "unrelated.tool" });
    expect(await adapter(parameterize)).toEqual({ parameters: { city: "fake", units: null } });
    const [first, second] = seen();
    checkCanonical(select, first!);
    checkCanonical(parameterize, second!);
    expect(second!.argv[second!.argv.indexOf("--system-prompt") + 1]).toBe(parameterize.messages[0].content);
    expect(second!.argv[second!.argv.indexOf("--model") + 1]).toBe("model-a");
  });
});

describe("built-in model adapters", () => {
  const SETTINGS = { temperature: 0, max_output_tokens: 256, seed: null, prompt_cache: false };
  const TIMING = { now: () => 0, sleep: async () => undefined, random: () => 0 };
  const RETRY = { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 1 };
  const KEYS = { ANTHROPIC_API_KEY: "sk-ant-test", OPENAI_API_KEY: "sk-openai-test" };
  let provider: StructuredProvider | undefined;
  afterEach(async () => {
    await provider?.close();
    provider = undefined;
  });

  function builtIn(
    spec: string,
    baseUrl: string,
    extra: { openaiApi?: "chat" | "responses"; maxResponseBytes?: number } = {},
  ): Adapter {
    const parsed = parseAdapterSpec(spec);
    if (parsed.kind === "process") throw new Error("not a built-in adapter");
    return createModelAdapter({
      kind: parsed.kind,
      model: parsed.model,
      env: KEYS,
      baseUrl,
      openaiApi: extra.openaiApi ?? "chat",
      requestTimeoutMs: 5_000,
      ...(extra.maxResponseBytes !== undefined ? { maxResponseBytes: extra.maxResponseBytes } : {}),
      settings: SETTINGS,
      retry: RETRY,
      timing: TIMING,
    });
  }

  it("tells built-in adapters from commands", () => {
    expect(parseAdapterSpec("anthropic:claude-sonnet-5")).toEqual({
      kind: "anthropic",
      model: "claude-sonnet-5",
    });
    expect(parseAdapterSpec("openai-compatible:qwen3:8b")).toEqual({
      kind: "openai-compatible",
      model: "qwen3:8b",
    });
    expect(parseAdapterSpec("./adapters/codex-cli.mjs")).toEqual({
      kind: "process",
      command: "./adapters/codex-cli.mjs",
    });
    expect(parseAdapterSpec("C:\\adapters\\run.exe")).toEqual({
      kind: "process",
      command: "C:\\adapters\\run.exe",
    });
    expect(() => parseAdapterSpec("openai:")).toThrow(expect.objectContaining({ code: "unknown_adapter" }));
  });

  it("sends OpenAI the canonical messages and the response schema unchanged, strictly", async () => {
    const request = parameterizeRequest(REFERENCE_TASK, TOOL, CONTEXT);
    provider = await startStructuredProvider(() => '{"parameters":{"city":"London","units":null}}');
    const answer = await builtIn("openai:gpt-test", `${provider.url}/v1`)(request);
    expect(answer).toEqual({ parameters: { city: "London", units: null } });
    const [sent] = provider.requests;
    expect(sent?.path).toBe("/v1/chat/completions");
    expect(sent?.credential).toBe("Bearer sk-openai-test");
    expect(sent?.body["messages"]).toEqual(request.messages);
    expect(sent?.body["response_format"]).toEqual({
      type: "json_schema",
      json_schema: { name: "discover_call_parameterize", schema: request.response_schema, strict: true },
    });
    expect(sent?.body["tools"]).toBeUndefined();
    expect(sent?.raw).toContain(JSON.stringify(request.response_schema));
  });

  it("sends Anthropic the canonical messages and the response schema as its structured output", async () => {
    provider = await startStructuredProvider(() => '{"tool_id":"weather.forecast"}');
    const request = selectRequest(REFERENCE_TASK, DISCOVERED, CONTEXT);
    expect(await builtIn("anthropic:claude-test", provider.url)(request)).toEqual({
      tool_id: "weather.forecast",
    });
    const [sent] = provider.requests;
    expect(sent?.path).toBe("/v1/messages");
    expect(sent?.credential).toContain("sk-ant-test");
    expect(sent?.body["system"]).toEqual([{ type: "text", text: request.messages[0].content }]);
    expect(sent?.body["messages"]).toEqual([
      { role: "user", content: [{ type: "text", text: request.messages[1].content }] },
    ]);
    expect(sent?.body["output_config"]).toEqual({
      format: { type: "json_schema", schema: request.response_schema },
    });
    expect(sent?.body["tools"]).toBeUndefined();
    expect(sent?.raw).toContain(JSON.stringify(request.response_schema));
  });

  it("uses the Responses API's text format when asked to", async () => {
    provider = await startStructuredProvider(() => '{"tool_id":"weather.forecast"}');
    const request = selectRequest(REFERENCE_TASK, DISCOVERED, CONTEXT);
    await builtIn("openai:gpt-test", `${provider.url}/v1`, { openaiApi: "responses" })(request);
    const [sent] = provider.requests;
    expect(sent?.path).toBe("/v1/responses");
    expect(sent?.body["instructions"]).toBe(request.messages[0].content);
    expect(sent?.body["input"]).toEqual([{ role: "user", content: request.messages[1].content }]);
    expect(sent?.body["text"]).toEqual({
      format: {
        type: "json_schema",
        name: "discover_call_select",
        schema: request.response_schema,
        strict: true,
      },
    });
  });

  it("sends an OpenAI-compatible server no key unless one is named", async () => {
    provider = await startStructuredProvider(() => '{"tool_id":"weather.forecast"}');
    await builtIn(
      "openai-compatible:local-model",
      `${provider.url}/v1`,
    )(selectRequest(REFERENCE_TASK, DISCOVERED, CONTEXT));
    expect(provider.requests[0]?.credential).toBe("");
    expect(provider.requests[0]?.body["max_tokens"]).toBe(256);
  });

  it.each([
    ["text that is not JSON", "The best tool is weather.forecast"],
    ["a JSON list", '["weather.forecast"]'],
    ["JSON null", "null"],
  ])("records a reply of %s as invalid_output", async (_, text) => {
    provider = await startStructuredProvider(() => text);
    const adapter = builtIn("openai:gpt-test", `${provider.url}/v1`);
    expect(await failureCode(adapter(selectRequest(REFERENCE_TASK, DISCOVERED, CONTEXT)))).toBe(
      "invalid_output",
    );
  });

  it("retries a transient failure and then answers", async () => {
    let n = 0;
    provider = await startStructuredProvider(() => (n++ === 0 ? 503 : '{"tool_id":"weather.forecast"}'));
    const adapter = builtIn("anthropic:claude-test", provider.url);
    expect(await adapter(selectRequest(REFERENCE_TASK, DISCOVERED, CONTEXT))).toEqual({
      tool_id: "weather.forecast",
    });
    expect(provider.requests).toHaveLength(2);
  });

  it("records a provider that keeps failing as model_failed, without its error body", async () => {
    const fake = await startFakeProvider({ tasks: [], fault: () => ({ kind: "status", status: 401 }) });
    try {
      const adapter = builtIn("openai:gpt-test", `${fake.url}/v1`);
      expect(await failureCode(adapter(selectRequest(REFERENCE_TASK, DISCOVERED, CONTEXT)))).toBe(
        "model_failed",
      );
      const anthropic = builtIn("anthropic:claude-test", fake.url);
      expect(await failureCode(anthropic(selectRequest(REFERENCE_TASK, DISCOVERED, CONTEXT)))).toBe(
        "model_failed",
      );
    } finally {
      await fake.close();
    }
  });

  it("records a reply over the size limit as output_limit", async () => {
    provider = await startStructuredProvider(() => JSON.stringify({ tool_id: "x".repeat(5_000) }));
    const adapter = builtIn("openai:gpt-test", `${provider.url}/v1`, { maxResponseBytes: 1_000 });
    expect(await failureCode(adapter(selectRequest(REFERENCE_TASK, DISCOVERED, CONTEXT)))).toBe(
      "output_limit",
    );
  });
});
