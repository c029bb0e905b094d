/**
 * Bounds on what a corpus hands an agent as a tool result, checked on the raw row before the task
 * schema or any rule walks it. An observation is stored twice in every run record that returns it
 * (the turn's observations and the attempt's), shown to the agent and counted in tokens on every
 * later turn: one 20 MB observation makes a 40 MB record per episode. And one nested deeper than
 * any API answers would overflow the recursive code that hashes, validates and renders it.
 */
import { MAX_JSON_DEPTH, nestedDeeperThan } from "../../core/index.ts";
import type { RuleProblem } from "./context.ts";

/**
 * The largest observation accepted, in bytes of its JSON text: 256 KiB, over a hundred times the
 * largest bundled one (2,357 bytes) and far above what a real API's single answer holds.
 */
export const MAX_OBSERVATION_BYTES = 256 * 1024;

/** `json_too_deep` / `observation_too_large` for each observation of a row's fixture, whatever the row's shape. */
export function observationLimitProblems(row: unknown): RuleProblem[] {
  const responses = field(field(row, "executor_fixture"), "responses");
  if (!Array.isArray(responses)) return [];
  const problems: RuleProblem[] = [];
  responses.forEach((response, index) => {
    const observation = field(response, "observation");
    if (observation === undefined) return;
    const where = `executor_fixture.responses[${index}].observation`;
    if (nestedDeeperThan(observation, MAX_JSON_DEPTH)) {
      problems.push({
        code: "json_too_deep",
        message: `${where} nests deeper than ${MAX_JSON_DEPTH} levels; no API answer needs that`,
      });
      return;
    }
    const bytes = Buffer.byteLength(JSON.stringify(observation), "utf8");
    if (bytes > MAX_OBSERVATION_BYTES)
      problems.push({
        code: "observation_too_large",
        message: `${where} is ${bytes.toLocaleString("en-US")} bytes of JSON, more than the ${MAX_OBSERVATION_BYTES.toLocaleString("en-US")} an observation may be (it is stored twice in every record that returns it)`,
      });
  });
  return problems;
}

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}
