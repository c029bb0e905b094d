/**
 * External routers. `command:PATH` runs a program (no shell, only PATH of the environment) once per
 * query: one JSON object in on stdin, `{"ranking": [route ids, best first]}` out on stdout; the last
 * 2 KB of its stderr are quoted in every error it causes, with every known key value redacted. It
 * runs in its own process group, killed with everything it started when the query is answered.
 * `http://…` or `https://…` (once written `http:URL`) POSTs `{"query", "limit"}` and
 * reads `{"results": [{"tool_id"}]}`, best first (`tool_id` may be a route id or a function name).
 * Routes a router leaves out rank after those it names, in route-id order. Time-outs and malformed
 * answers are errors with codes; nothing is guessed.
 */
import { closeSync, openSync, readSync } from "node:fs";
import {
  compareCodePoints,
  ByteTail as CoreByteTail,
  decodeStrictUtf8,
  FabenchError,
  MAX_JSON_DEPTH,
  parseBoundedJson,
  redactSecrets,
  runChild,
} from "../../core/index.ts";
import { boundedFetch } from "../../providers/index.ts";
import type { Endpoint } from "../catalog/schema.ts";
import type { RankRequest, Router } from "./types.ts";

export const ROUTER_PROTOCOL_VERSION = 1;
const MAX_OUTPUT_BYTES = 8 * 1024 * 1024;

function routerError(code: string, message: string): FabenchError {
  return new FabenchError({ kind: "input", stage: "router", code, message });
}

/** Named routes first (unknown ones refused or skipped), then every other route in id order. */
export function completeRanking(
  named: readonly string[],
  endpoints: readonly Endpoint[],
  unknown: "refuse" | "skip",
  who: string,
): string[] {
  const byName = new Map<string, string>();
  for (const e of endpoints) byName.set(e.route_id, e.route_id).set(e.function_name, e.route_id);
  const ranked: string[] = [];
  const seen = new Set<string>();
  for (const name of named) {
    const route = byName.get(name);
    if (route === undefined) {
      if (unknown === "refuse")
        throw routerError(
          "router_bad_response",
          `${who} ranked ${JSON.stringify(name)}, which is not in the catalog`,
        );
      continue;
    }
    if (seen.has(route)) throw routerError("router_bad_response", `${who} ranked ${route} twice`);
    seen.add(route);
    ranked.push(route);
  }
  const rest = endpoints
    .map((e) => e.route_id)
    .filter((id) => !seen.has(id))
    .sort(compareCodePoints);
  return [...ranked, ...rest];
}

export function commandRouter(
  path: string,
  args: readonly string[],
  timeoutMs: number,
  searchPath: string,
): Router {
  const who = `command router ${path}`;
  return {
    id: `command:${path}`,
    config: { path, args, timeout_ms: timeoutMs, protocol_version: ROUTER_PROTOCOL_VERSION },
    rank: async (request) => {
      const input = JSON.stringify({
        protocol_version: ROUTER_PROTOCOL_VERSION,
        query: request.query,
        catalog_size: request.catalogSize,
        endpoints: request.endpoints,
      });
      const { stdout, stderr } = await runProgram(path, args, input, timeoutMs, searchPath);
      const bad = (message: string) => routerError("router_bad_response", `${message}${stderrNote(stderr)}`);
      const parsed = parseBoundedJson(stdout);
      if (!parsed.ok)
        throw bad(
          parsed.reason === "too_deep"
            ? `${who} printed JSON nested deeper than ${MAX_JSON_DEPTH} levels`
            : `${who} did not print one JSON object (it printed ${printedSample(stdout)})`,
        );
      const ranking = (parsed.value as { ranking?: unknown } | null)?.ranking;
      if (!Array.isArray(ranking) || !ranking.every((r) => typeof r === "string"))
        throw bad(`${who} must print {"ranking": [route ids]}, not ${printedSample(stdout)}`);
      try {
        return completeRanking(ranking, request.endpoints, "refuse", who);
      } catch (error) {
        throw error instanceof FabenchError ? bad(error.message) : error;
      }
    },
  };
}

/** How much of a command router's stderr an error quotes: its last 2 KB. */
export const STDERR_TAIL_BYTES = 2048;

/** The last bytes of a stream (the supervisor's; kept here too for the tests that quote it). */
export class ByteTail extends CoreByteTail {
  constructor(limit: number = STDERR_TAIL_BYTES) {
    super(limit);
  }
}

/** `; its stderr ended with:` and the tail, indented; nothing when it wrote nothing. */
function stderrNote(tail: string): string {
  const text = redactSecrets(tail).trimEnd();
  if (text.trim() === "") return "";
  return `; its stderr ended with:\n${text
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n")}`;
}

function printedSample(printed: string): string {
  const stdout = redactSecrets(printed);
  if (stdout.trim() === "") return "nothing";
  return stdout.length > 200 ? `${JSON.stringify(stdout.slice(0, 200))}…` : JSON.stringify(stdout);
}

const RUN_HINT = "is it executable (chmod +x) and does it start with a #! line, such as #!/usr/bin/env node?";

/**
 * Why a program may not have run as one: no `#!` line (the system then refuses it, or runs it with
 * /bin/sh), not executable, an interpreter not on the PATH it was given, or no such file.
 */
function runHint(path: string, failure: number | string | null): string {
  if (startsWithShebang(path) === false)
    return " (hint: it does not start with a #! line, such as #!/usr/bin/env node, so the system does not know what runs it)";
  if (failure === "ENOEXEC" || failure === "EACCES" || failure === 126) return ` (hint: ${RUN_HINT})`;
  if (failure === 127)
    return " (hint: exit 127 means a program was not found; does its #! line name an interpreter on PATH? The router gets PATH and nothing else of the environment)";
  if (failure === "ENOENT")
    return path.includes("/")
      ? " (hint: no such file)"
      : " (hint: a name without a / is looked up on PATH; give a path such as ./router.mjs)";
  return "";
}

/** Whether a file given by path starts with `#!`; null when it is found on PATH or cannot be read. */
function startsWithShebang(path: string): boolean | null {
  if (!path.includes("/")) return null;
  try {
    const fd = openSync(path, "r");
    try {
      const head = Buffer.alloc(2);
      return readSync(fd, head, 0, 2, 0) === 2 && head.toString("latin1") === "#!";
    } finally {
      closeSync(fd);
    }
  } catch {
    return null; // missing or unreadable: the spawn error says which
  }
}

/** Runs the router once under the child supervisor: its stdout as strict UTF-8, and its stderr's tail. */
async function runProgram(
  path: string,
  args: readonly string[],
  input: string,
  timeoutMs: number,
  searchPath: string,
): Promise<{ stdout: string; stderr: string }> {
  const who = `command router ${path}`;
  const outcome = await runChild({
    command: path,
    args,
    env: { PATH: searchPath },
    input,
    timeoutMs,
    maxStdoutBytes: MAX_OUTPUT_BYTES,
    maxStderrBytes: Number.POSITIVE_INFINITY,
    keepStderrBytes: STDERR_TAIL_BYTES,
  });
  const fail = (code: string, message: string, stderr = "") =>
    routerError(code, `${message}${stderrNote(stderr)}`);
  if (outcome.kind === "start_failed")
    throw fail("router_failed", `cannot run ${who}: ${outcome.errno}${runHint(path, outcome.errno)}`);
  const stderr = outcome.stderr.text();
  if (outcome.kind === "stopped")
    throw outcome.reason === "timeout"
      ? fail("router_timeout", `${who} gave no answer within ${timeoutMs} ms`, stderr)
      : fail("router_bad_response", `${who} printed more than ${MAX_OUTPUT_BYTES} bytes`, stderr);
  if (outcome.code !== 0)
    throw fail(
      "router_failed",
      outcome.code === null
        ? `${who} was killed by ${outcome.signal}`
        : `${who} exited with code ${outcome.code}${runHint(path, outcome.code)}`,
      stderr,
    );
  const stdout = decodeStrictUtf8(outcome.stdout);
  if (stdout === null) throw fail("router_bad_response", `${who} printed bytes that are not UTF-8`, stderr);
  return { stdout, stderr };
}

/** How an HTTP router's reply is read: strict UTF-8, so a broken byte is an error, not U+FFFD. */
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

export function httpRouter(url: string, timeoutMs: number, fetchImpl: typeof fetch = fetch): Router {
  const who = `http router ${url}`;
  // One timer over the request and its body, and a byte cap read as the body streams in: a reply
  // past MAX_OUTPUT_BYTES is cut there, never held whole (the same cap as a command router's).
  const bounded = boundedFetch({ maxBytes: MAX_OUTPUT_BYTES, timeoutMs, base: fetchImpl });
  const failed = (error: unknown) => {
    const code = error instanceof FabenchError ? error.code : null;
    const name = error instanceof Error ? error.name : "";
    if (code === "provider_timeout" || name === "TimeoutError" || name === "AbortError")
      return routerError("router_timeout", `${who} gave no answer within ${timeoutMs} ms`);
    if (code === "response_too_large")
      return routerError("router_bad_response", `${who} answered more than ${MAX_OUTPUT_BYTES} bytes`);
    return null;
  };
  return {
    id: `http:${url}`,
    config: { url, timeout_ms: timeoutMs },
    rank: async (request: RankRequest) => {
      let response: Response;
      try {
        response = await bounded(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: request.query, limit: request.catalogSize }),
        });
      } catch (error) {
        throw failed(error) ?? routerError("router_failed", `cannot reach ${who}`);
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw routerError("router_failed", `${who} answered HTTP ${response.status}`);
      }
      let text: string;
      try {
        text = strictUtf8.decode(await response.arrayBuffer());
      } catch (error) {
        throw failed(error) ?? routerError("router_bad_response", `${who} did not answer with UTF-8 text`);
      }
      const parsed = parseBoundedJson(text);
      if (!parsed.ok)
        throw routerError(
          "router_bad_response",
          parsed.reason === "too_deep"
            ? `${who} answered JSON nested deeper than ${MAX_JSON_DEPTH} levels`
            : `${who} did not answer with JSON`,
        );
      const results = (parsed.value as { results?: unknown } | null)?.results;
      if (
        !Array.isArray(results) ||
        !results.every((r) => typeof (r as { tool_id?: unknown } | null)?.tool_id === "string")
      )
        throw routerError("router_bad_response", `${who} must answer {"results": [{"tool_id": …}]}`);
      // A service indexed over a larger catalog may name routes this catalog lacks; those are skipped.
      return completeRanking(
        results.map((r) => (r as { tool_id: string }).tool_id),
        request.endpoints,
        "skip",
        who,
      );
    },
  };
}
