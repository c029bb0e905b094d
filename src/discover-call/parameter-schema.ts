/**
 * The parameterize stage's contract with an inspected tool (DISCOVER-CALL.md §1 step 4, §4): the
 * strict response schema an adapter answers to, the required names a record keeps, and the check of
 * the answer against the tool as inspect returned it. Pure: plain values in, plain values out.
 *
 * The schema is sent to adapters verbatim, and the reference implementation's adapters and records
 * are interchange formats, so key order, wording and which check fires first follow the reference
 * (QVerisAI/qveris-agent-toolkit, benchmarks/discover-call/src/harness.mjs) exactly; the messages are
 * stored in records, so they are part of the format too.
 */
import { FabenchError } from "../core/index.ts";

/** A JSON Schema object as adapters receive it; its key order is part of the protocol. */
export type JsonSchema = Record<string, unknown>;

/** A required parameter name, or a `one_of_required` group of names of which one must be given. */
export type RequiredParameter = string | string[];

export const OPTIONAL_PARAMETER_HINT = "Use null when this optional parameter is not needed.";

const TYPE_ALIASES: Readonly<Record<string, string>> = {
  integer: "integer",
  int: "integer",
  number: "number",
  float: "number",
  double: "number",
  boolean: "boolean",
  bool: "boolean",
  array: "array",
  list: "array",
  object: "object",
  map: "object",
  string: "string",
};

function failure(code: string, message: string): FabenchError {
  return new FabenchError({ kind: "input", stage: "parameterize", code, message });
}

const unsupported = (message: string) => failure("unsupported_parameter_schema", message);
const invalidValue = (message: string) => failure("invalid_parameter_values", message);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** `value[key]` when value is an object; inspected metadata is untrusted JSON of any shape. */
function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The label of a parameter in messages; nested and item schemas have no name. */
function label(parameter: unknown): string {
  return String(field(parameter, "name") ?? "<unnamed>");
}

/** A declared type as a JSON Schema type; matching is case-insensitive, as in the reference. */
function jsonType(declared: unknown): string {
  if (typeof declared !== "string") throw unsupported("Parameter type is missing");
  const key = declared.toLowerCase();
  // hasOwn: a declared type such as "constructor" must not find Object.prototype's.
  if (!Object.hasOwn(TYPE_ALIASES, key)) throw unsupported(`Unsupported parameter type: ${declared}`);
  return TYPE_ALIASES[key] as string;
}

function memberType(value: unknown): string | null {
  if (typeof value === "string") return "string";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  if (typeof value === "boolean") return "boolean";
  if (value === null) return "null";
  return null;
}

/** An enum's type from its members (number absorbs integer), nullable unless required. */
function enumType(values: readonly unknown[], required: boolean): string | string[] {
  const types = [...new Set(values.map(memberType).filter((t): t is string => t !== null))];
  const merged = types.includes("number") ? types.filter((t) => t !== "integer") : types;
  if (!required) merged.push("null");
  return merged.length === 1 ? (merged[0] as string) : merged;
}

function strictSchema(parameter: unknown, required: boolean): JsonSchema {
  // The declared type is checked first even when an enum will decide the type.
  const type = jsonType(field(parameter, "type"));
  const schema: JsonSchema = {};
  const description = field(parameter, "description");
  if (typeof description === "string" && description !== "")
    schema["description"] = required ? description : `${description} ${OPTIONAL_PARAMETER_HINT}`;

  const values = field(parameter, "enum");
  if (values !== undefined && !Array.isArray(values))
    throw unsupported(`Parameter ${label(parameter)} has invalid enum metadata`);
  if (Array.isArray(values) && values.length > 0) {
    if (values.some((v) => memberType(v) === null || (typeof v === "number" && !Number.isFinite(v))))
      throw unsupported(`Parameter ${label(parameter)} has unsupported enum values`);
    schema["type"] = enumType(values, required);
    schema["enum"] = required ? [...values] : [...values, null];
    return schema;
  }

  schema["type"] = required ? type : [type, "null"];
  if (type === "array") {
    const items = field(parameter, "items");
    if (!isPlainObject(items)) {
      if (required) throw unsupported(`Required array parameter ${label(parameter)} has no item schema`);
      // Nothing can be said about its members, so the only safe optional answer is "not given".
      return { ...schema, type: "null" };
    }
    schema["items"] = strictSchema(items, true);
  } else if (type === "object") {
    const declared = field(parameter, "properties");
    const nested = isPlainObject(declared) ? declared : {};
    if (Object.keys(nested).length === 0) {
      if (required) throw unsupported(`Required object parameter ${label(parameter)} has no property schema`);
      return { ...schema, type: "null" };
    }
    // fromEntries defines own properties, so a property named __proto__ stays a property.
    const properties = Object.fromEntries(
      Object.entries(nested).map(([name, child]) => [
        name,
        strictSchema(isPlainObject(child) ? child : { type: "string" }, field(child, "required") === true),
      ]),
    );
    schema["additionalProperties"] = false;
    schema["required"] = Object.keys(properties);
    schema["properties"] = properties;
  }
  return schema;
}

/**
 * The strict `{parameters: {…}}` schema for an inspected tool: every parameter listed in `required`,
 * optional ones nullable. Throws `unsupported_parameter_schema` (stage `parameterize`) for metadata
 * it cannot express without guessing — before any model or billed call is made.
 */
export function parameterResponseSchema(tool: unknown): JsonSchema {
  const entries: Array<[string, JsonSchema]> = [];
  const seen = new Set<string>();
  for (const parameter of list(field(tool, "params"))) {
    const name = field(parameter, "name");
    if (
      typeof name !== "string" ||
      name.trim() === "" ||
      typeof field(parameter, "required") !== "boolean" ||
      seen.has(name)
    )
      throw unsupported("Inspected tool contains invalid or duplicate parameter metadata");
    seen.add(name);
    entries.push([name, strictSchema(parameter, field(parameter, "required") === true)]);
  }
  return {
    type: "object",
    additionalProperties: false,
    required: ["parameters"],
    properties: {
      parameters: {
        type: "object",
        additionalProperties: false,
        required: entries.map(([name]) => name),
        properties: Object.fromEntries(entries),
      },
    },
  };
}

/**
 * The tool's `one_of_required` as groups: absent, null or [] is none; a list of names is one group;
 * a list of lists is several. Anything else, or a name the tool does not declare, is refused.
 */
function oneOfGroups(tool: unknown): string[][] {
  const value = field(tool, "one_of_required");
  if (value === undefined || value === null) return [];
  if (Array.isArray(value) && value.length === 0) return [];
  const groups = !Array.isArray(value)
    ? null
    : value.every((name) => typeof name === "string")
      ? [value]
      : value;
  const declared = new Set(list(field(tool, "params")).map((p) => field(p, "name")));
  const valid =
    groups !== null &&
    groups.every(
      (group) =>
        Array.isArray(group) &&
        group.length > 0 &&
        group.every((name) => typeof name === "string" && name.trim() !== "" && declared.has(name)),
    );
  if (!valid) throw unsupported("Inspected tool contains invalid one_of_required metadata");
  return (groups as string[][]).map((group) => [...new Set(group)]);
}

/** What a record keeps as `inspection.required_parameters`: required names, then one-of groups. */
export function requiredParameters(tool: unknown): RequiredParameter[] {
  const names = list(field(tool, "params"))
    .filter((p) => field(p, "required") === true && typeof field(p, "name") === "string")
    .map((p) => field(p, "name") as string);
  return [...names, ...oneOfGroups(tool)];
}

/** The answer's parameters without top-level nulls (how an adapter says "optional, not needed"). */
export function readParameterAnswer(answer: unknown): Record<string, unknown> {
  const parameters = field(answer, "parameters");
  if (!isPlainObject(parameters))
    throw failure("invalid_parameters", "Adapter did not return a parameters object");
  return Object.fromEntries(Object.entries(parameters).filter(([, value]) => value !== null));
}

function given(container: Record<string, unknown>, name: string): boolean {
  if (!Object.hasOwn(container, name)) return false;
  const value = container[name];
  return value !== undefined && value !== null && value !== "";
}

function checkValue(value: unknown, parameter: unknown, required: boolean): void {
  if (value === null) {
    if (required) throw invalidValue("Adapter returned null for a required parameter");
    return;
  }
  const values = field(parameter, "enum");
  if (Array.isArray(values) && values.length > 0) {
    if (!values.includes(value)) throw invalidValue("Adapter returned a value outside the parameter enum");
    return;
  }
  const type = jsonType(field(parameter, "type"));
  const valid =
    type === "string"
      ? typeof value === "string"
      : type === "integer"
        ? Number.isInteger(value)
        : type === "number"
          ? typeof value === "number" && Number.isFinite(value)
          : type === "boolean"
            ? typeof value === "boolean"
            : type === "array"
              ? Array.isArray(value)
              : isPlainObject(value);
  if (!valid) throw invalidValue(`Adapter returned an invalid ${type} value`);
  if (type === "array") checkItems(value as unknown[], field(parameter, "items"));
  if (type === "object") checkObject(value as Record<string, unknown>, field(parameter, "properties"));
}

function checkItems(value: readonly unknown[], items: unknown): void {
  if (!isPlainObject(items)) throw invalidValue("Adapter returned an opaque array parameter");
  for (const item of value) checkValue(item, items, true);
}

function checkObject(value: Record<string, unknown>, declared: unknown): void {
  const properties = isPlainObject(declared) ? declared : {};
  if (Object.keys(properties).length === 0) throw invalidValue("Adapter returned an opaque object parameter");
  for (const [name, child] of Object.entries(value)) {
    if (!Object.hasOwn(properties, name)) throw invalidValue("Adapter returned an unknown nested parameter");
    checkValue(child, properties[name], field(properties[name], "required") === true);
  }
  for (const [name, child] of Object.entries(properties))
    if (field(child, "required") === true && !given(value, name))
      throw invalidValue("Adapter omitted a required nested parameter");
}

/**
 * Checks nulls-stripped parameters against the tool as inspected (never against the copy the
 * adapter saw, which it could have changed): unknown names, types and enums, required names
 * missing, null or "", and unmet `one_of_required` groups fail with `invalid_parameter_values`.
 */
export function validateParameters(tool: unknown, parameters: Record<string, unknown>): void {
  // A Map, so that names such as toString or __proto__ are looked up as data, never inherited.
  const definitions = new Map(list(field(tool, "params")).map((p) => [field(p, "name"), p]));
  for (const [name, value] of Object.entries(parameters)) {
    if (!definitions.has(name)) throw invalidValue(`Adapter returned unknown parameter ${name}`);
    const definition = definitions.get(name);
    checkValue(value, definition, field(definition, "required") === true);
  }
  for (const definition of definitions.values()) {
    const name = field(definition, "name");
    if (field(definition, "required") === true && !given(parameters, String(name)))
      throw invalidValue(`Adapter omitted required parameter ${String(name)}`);
  }
  for (const group of oneOfGroups(tool))
    if (!group.some((name) => given(parameters, name)))
      throw invalidValue(`Adapter omitted one_of_required group ${group.join(",")}`);
}
