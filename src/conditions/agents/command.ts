/**
 * `command:PATH`: a subprocess per turn, started without a shell and with a minimal environment
 * (PATH, HOME and the variables named by --pass-env). One JSON object in on stdin —
 * `{protocol_version, messages, tools, task_set_sha256}` — and one out on stdout: `{"text"}` or
 * `{"text", "tool_calls": [{"name", "arguments"}]}`. Its stderr is drained and never recorded.
 * It runs in its own process group, killed with everything it started when the turn ends.
 */
import {
  decodeStrictUtf8,
  FabenchError,
  hasNonFiniteNumber,
  interruptedError,
  MAX_JSON_DEPTH,
  parseBoundedJson,
  runChild,
  type StopReason,
} from "../../core/index.ts";
import type { ToolCall } from "../execution/types.ts";
import type { Agent, AgentTurnRequest, AgentTurnResponse } from "./types.ts";

export const COMMAND_AGENT_PROTOCOL_VERSION = 1;

export interface CommandAgentOptions {
  readonly path: string;
  readonly args: readonly string[];
  readonly passEnv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs: number;
  readonly maxStdoutBytes: number;
  readonly maxStderrBytes: number;
  readonly taskSetSha256: string;
}

function failure(code: string, message: string): FabenchError {
  return new FabenchError({ kind: "input", stage: "agent", code, message });
}

export function commandAgent(options: CommandAgentOptions): Agent {
  return {
    identity: {
      agent: `command:${options.path}`,
      model: null,
      settings: {
        args: [...options.args],
        pass_env: [...options.passEnv],
        timeout_ms: options.timeoutMs,
        protocol_version: COMMAND_AGENT_PROTOCOL_VERSION,
      },
    },
    startEpisode: () => ({ turn: (request) => commandTurn(options, request) }),
  };
}

async function commandTurn(
  options: CommandAgentOptions,
  request: AgentTurnRequest,
): Promise<AgentTurnResponse> {
  const input = JSON.stringify({
    protocol_version: COMMAND_AGENT_PROTOCOL_VERSION,
    messages: request.messages,
    tools: request.tools,
    task_set_sha256: options.taskSetSha256,
  });
  const stdout = await runOnce(options, input, request.signal);
  const parsed = parseBoundedJson(stdout);
  if (!parsed.ok)
    throw failure(
      "command_bad_response",
      parsed.reason === "too_deep"
        ? `${options.path} printed JSON nested deeper than ${MAX_JSON_DEPTH} levels`
        : `${options.path} did not print one JSON object`,
    );
  const record = (parsed.value ?? {}) as { text?: unknown; tool_calls?: unknown };
  if (typeof record.text !== "string")
    throw failure("command_bad_response", `${options.path} must print {"text": …}`);
  const calls = record.tool_calls ?? [];
  if (
    !Array.isArray(calls) ||
    !calls.every((c) => typeof (c as { name?: unknown } | null)?.name === "string")
  )
    throw failure(
      "command_bad_response",
      `${options.path}: tool_calls must be a list of {"name", "arguments"}`,
    );
  const toolCalls: ToolCall[] = calls.map((c, i) => ({
    id: `cmd_${request.turn}_${i}`,
    name: (c as { name: string }).name,
    arguments: (c as { arguments?: unknown }).arguments ?? {},
  }));
  // JSON.parse reads 1e309 as Infinity, which a record would keep as null: a number no API accepts.
  if (toolCalls.some((c) => hasNonFiniteNumber(c.arguments)))
    throw failure(
      "tool_arguments_number_out_of_range",
      `${options.path}: a tool call's arguments hold a number too large for JSON (such as 1e309)`,
    );
  return { text: record.text, toolCalls };
}

/** Runs the agent once under the child supervisor: its stdout as strict UTF-8 text, or a coded failure. */
async function runOnce(
  options: CommandAgentOptions,
  input: string,
  signal: AbortSignal | undefined,
): Promise<string> {
  const env: Record<string, string> = {};
  for (const name of ["PATH", "HOME", ...options.passEnv]) {
    const value = options.env[name];
    if (value !== undefined) env[name] = value;
  }
  const outcome = await runChild({
    command: options.path,
    args: options.args,
    env,
    input,
    timeoutMs: options.timeoutMs,
    maxStdoutBytes: options.maxStdoutBytes,
    maxStderrBytes: options.maxStderrBytes,
    keepStderrBytes: 0, // drained, counted, never kept
    signal,
  });
  if (outcome.kind === "start_failed")
    throw failure("command_failed", `cannot run ${options.path}: ${outcome.errno}`);
  if (outcome.kind === "stopped") throw stopFailure(options, outcome.reason);
  if (outcome.code !== 0)
    throw failure(
      "command_failed",
      outcome.code === null
        ? `${options.path} was killed by ${outcome.signal}`
        : `${options.path} exited with code ${outcome.code}`,
    );
  const text = decodeStrictUtf8(outcome.stdout);
  if (text === null)
    throw failure("command_invalid_utf8", `${options.path} printed bytes that are not UTF-8`);
  return text;
}

function stopFailure(options: CommandAgentOptions, reason: StopReason): FabenchError {
  switch (reason) {
    case "timeout":
      return failure("command_timeout", `${options.path} gave no answer within ${options.timeoutMs} ms`);
    case "interrupted":
      return interruptedError(`${options.path} was stopped: the run was interrupted`);
    case "stdout_limit":
      return failure(
        "command_output_too_large",
        `${options.path} printed more than ${options.maxStdoutBytes} bytes`,
      );
    case "stderr_limit":
      return failure(
        "command_output_too_large",
        `${options.path} wrote more than ${options.maxStderrBytes} bytes to stderr`,
      );
  }
}
