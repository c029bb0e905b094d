/**
 * A matched response as the call asked for it: its values in the unit the call's unit parameter
 * names (unit-reply.ts), and a search's echo of its query equal to the query the call sent — a
 * service echoes what it was asked, never what the fixture's author typed. A response's top-level
 * field named like the route's free-text query parameter (`query`, `q`, `keywords`) holds the
 * call's argument, or is left out when the call sent none. Nothing else changes; the task's
 * evidence payloads stay as recorded. The same call, the same bytes.
 */
import type { Endpoint } from "../catalog/schema.ts";
import { convertObservation } from "./unit-reply.ts";

const QUERY_PARAM = /^(query|q|search|keywords?|text_query)$/;

/** The route's free-text query parameters. */
function queryParameters(endpoint: Endpoint): string[] {
  return Object.entries(endpoint.parameters.properties)
    .filter(
      ([name, schema]) =>
        QUERY_PARAM.test(name) && schema["type"] === "string" && schema["enum"] === undefined,
    )
    .map(([name]) => name);
}

function echoAsSent(
  record: Record<string, unknown>,
  names: readonly string[],
  args: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  if (!names.some((name) => Object.hasOwn(record, name))) return record;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (!names.includes(key) || typeof value !== "string") out[key] = value;
    else if (Object.hasOwn(args, key)) out[key] = args[key];
  }
  return out;
}

export function asAsked(
  endpoint: Endpoint,
  args: Readonly<Record<string, unknown>>,
  observation: Record<string, unknown>,
): Record<string, unknown> {
  const converted = convertObservation(endpoint, args, observation);
  const names = queryParameters(endpoint);
  if (names.length === 0) return converted;
  const result = converted["result"];
  const sources = converted["sources"];
  return {
    ...converted,
    ...(typeof result === "object" && result !== null && !Array.isArray(result)
      ? { result: echoAsSent(result as Record<string, unknown>, names, args) }
      : {}),
    ...(Array.isArray(sources)
      ? {
          sources: sources.map((s: Record<string, unknown>) => ({
            ...s,
            payload: echoAsSent(s["payload"] as Record<string, unknown>, names, args),
          })),
        }
      : {}),
  };
}
