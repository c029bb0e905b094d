/**
 * The flags every command that talks to a model shares (`run` and `judge run`): what it would
 * cost, where the requests go, how the model samples, how failures are retried, and how a command
 * agent is started. One definition each, so a flag means the same in both commands and its help
 * text cannot drift (test/cli/help-consistency.test.ts checks the rest).
 */
import { type Command, Option } from "commander";
import { collect, nonNegative, nonNegativeInt, positiveInt } from "./options.ts";

const numeric = (flags: string, description: string, parse: (t: string) => number, value?: number) => {
  const option = new Option(flags, description).argParser(parse);
  return value === undefined ? option : option.default(value);
};

/** `--estimate`, `--prices`, `--budget-usd`. */
export function spendingOptions(): Option[] {
  return [
    new Option("--estimate", "print episodes, model calls, tokens and cost without sending anything").default(
      false,
    ),
    new Option(
      "--prices <file>",
      "price table (USD per million input / cached input / output tokens per model)",
    ),
    numeric(
      "--budget-usd <x>",
      "stop before the next request could take spending past X",
      nonNegative("--budget-usd"),
    ),
  ];
}

/** Where requests go and with which key: `--base-url`, `--api-key-env`, `--max-response-bytes`, `--openai-api`. */
export function connectionOptions(): Option[] {
  return [
    new Option("--base-url <url>", "provider base URL (openai-compatible: include /v1)"),
    new Option(
      "--api-key-env <name>",
      "environment variable holding the API key (default: ANTHROPIC_API_KEY for anthropic:, OPENAI_API_KEY for openai:, none for openai-compatible:)",
    ),
    numeric(
      "--max-response-bytes <n>",
      "largest provider reply read; a larger one is an episode error (response_too_large)",
      positiveInt("--max-response-bytes"),
      1_000_000,
    ),
    new Option("--openai-api <api>", "OpenAI API").choices(["chat", "responses"]).default("chat"),
  ];
}

/**
 * `--openai-tool-search`: under a native search condition (#34) with `--openai-api responses`, who
 * runs the model's searches — OpenAI (hosted `tool_search`) or fabench (`execution: "client"`,
 * answered with fabench's own engine over the frozen catalog).
 */
export function toolSearchOptions(): Option[] {
  return [
    new Option(
      "--openai-tool-search <execution>",
      "native search conditions on the OpenAI Responses API: hosted (OpenAI searches) or client (fabench's engine answers tool_search_call)",
    )
      .choices(["hosted", "client"])
      .default("hosted"),
  ];
}

/** `--temperature`, `--max-output-tokens`. */
export function samplingOptions(): Option[] {
  return [
    numeric("--temperature <t>", "sampling temperature", nonNegative("--temperature"), 0),
    numeric(
      "--max-output-tokens <n>",
      "output allowance per model turn",
      positiveInt("--max-output-tokens"),
      2048,
    ),
  ];
}

/** Time limits, retries and rate limits of provider requests. */
export function reliabilityOptions(): Option[] {
  return [
    numeric(
      "--request-timeout <ms>",
      "time limit per provider request (headers and the whole body)",
      positiveInt("--request-timeout"),
      120_000,
    ),
    numeric(
      "--max-retries <n>",
      "retries of a failed request (429, 5xx, time-outs, connection errors)",
      nonNegativeInt("--max-retries"),
      5,
    ),
    numeric(
      "--retry-base-delay <ms>",
      "first backoff delay, doubling per retry (Retry-After wins)",
      nonNegativeInt("--retry-base-delay"),
      1000,
    ),
    numeric("--rpm <n>", "requests per minute", positiveInt("--rpm")),
    numeric("--tpm <n>", "tokens per minute", positiveInt("--tpm")),
  ];
}

/** How a `command:PATH` agent is started: its arguments, the variables it may see, its time limit. */
export function commandAgentOptions(): Option[] {
  return [
    new Option("--agent-arg <arg>", "argument for a command agent (repeatable)")
      .argParser(collect)
      .default([]),
    new Option("--pass-env <name>", "environment variable a command agent may see (repeatable)")
      .argParser(collect)
      .default([]),
    numeric(
      "--agent-timeout <ms>",
      "time limit per command-agent turn",
      positiveInt("--agent-timeout"),
      120_000,
    ),
  ];
}

/** Adds option groups to a command, in order. */
export function withOptions(command: Command, ...groups: Option[][]): Command {
  for (const group of groups) for (const option of group) command.addOption(option);
  return command;
}
