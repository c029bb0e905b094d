/**
 * Tool arguments a provider hands back, bounded before anything recursive sees them (the token
 * counter, JSON.stringify of the record, the schema check): nested deeper than MAX_JSON_DEPTH, or
 * holding a number JSON cannot write (`1e309` parses to Infinity, which a record keeps as `null`),
 * they end the episode with a code of their own. Neither is retried: the same reply says the same.
 */
import { FabenchError, hasNonFiniteNumber, MAX_JSON_DEPTH, nestedDeeperThan } from "../core/index.ts";

export function argumentsTooDeep(name: string): FabenchError {
  return new FabenchError({
    kind: "input",
    stage: "provider",
    code: "tool_arguments_too_deep",
    message: `the arguments of the call to ${JSON.stringify(name)} nest deeper than ${MAX_JSON_DEPTH} levels`,
  });
}

/** Throws when parsed arguments are too deep or hold ±Infinity; returns them otherwise. */
export function boundedArguments(name: string, value: unknown): unknown {
  if (nestedDeeperThan(value, MAX_JSON_DEPTH)) throw argumentsTooDeep(name);
  if (hasNonFiniteNumber(value))
    throw new FabenchError({
      kind: "input",
      stage: "provider",
      code: "tool_arguments_number_out_of_range",
      message: `the arguments of the call to ${JSON.stringify(name)} hold a number too large for JSON (such as 1e309)`,
    });
  return value;
}
