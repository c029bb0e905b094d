/**
 * An endpoint's parameter JSON Schema, enforced as the API behind it would: every constraint the
 * schema states (type, enum, const, minimum/maximum and their exclusive forms, minLength/maxLength,
 * pattern, format, items, minItems/maxItems, required, additionalProperties). The replay executor
 * refuses a call with the first problem; `corpus check` refuses an argument rule whose literal the
 * schema forbids — one validator, so the two never disagree.
 *
 * The first problem, in a fixed order: the arguments are not an object; unexpected arguments (all
 * of them named); missing required ones (all named); then the parameters in the schema's order,
 * each by keyword (type, enum/const, format, pattern, lengths and bounds, the rest). One line,
 * naming the parameter: `page_size must be >= 1`.
 *
 * `format: date-time` is the replay's own reading of an instant (`instantOf`: a zone is required,
 * seconds and fractions optional), so every date-time the executor lets through is one an `instant`
 * rule can compare. Each schema is compiled once (cached by the schema object: a catalog's
 * endpoints are loaded once per world).
 */
import { createRequire } from "node:module";
import type AjvModule from "ajv";
import type { ErrorObject, ValidateFunction } from "ajv";
import type formatsModule from "ajv-formats";
import type { FormatName } from "ajv-formats";
import { instantOf } from "../core/index.ts";

type Ajv = InstanceType<typeof AjvModule.default>;

/** What the executor records for a refused call; the first three are the JSON-shape problems. */
export type ArgumentProblemCode =
  | "unexpected_arguments"
  | "missing_required_argument"
  | "invalid_type"
  | "invalid_argument_value"
  | "invalid_format";

export interface ArgumentProblem {
  readonly code: ArgumentProblemCode;
  readonly message: string;
}

/** An endpoint's `parameters`: a JSON Schema object with its properties and required names. */
export interface ParameterSchema {
  readonly properties: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly required: readonly string[];
}

/** How a format's problem is worded: what the value must be. */
const FORMAT_WORDS: Readonly<Record<string, string>> = {
  "date-time": "an ISO 8601 date-time with a time zone (e.g. 2026-03-03T10:00:00Z)",
  date: "a date (YYYY-MM-DD)",
  time: "a time (hh:mm:ss with a time zone)",
  uri: "a URI",
  "uri-reference": "a URI reference",
  url: "a URL",
  email: "an email address",
  hostname: "a host name",
  ipv4: "an IPv4 address",
  ipv6: "an IPv6 address",
  uuid: "a UUID",
  duration: "an ISO 8601 duration",
};

/** The order a parameter's problems are reported in; a keyword not listed comes last. */
const KEYWORD_ORDER = [
  "type",
  "enum",
  "const",
  "format",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "exclusiveMinimum",
  "maximum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "uniqueItems",
];

let compiler: Ajv | null = null;

/**
 * Made on first use, and required rather than imported: ajv is dozens of CommonJS modules that only
 * commands which validate arguments (run, corpus check, serve) need — not score, gate or report,
 * which reach this file through the authoring stage's front door.
 */
function ajv(): Ajv {
  if (compiler !== null) return compiler;
  const require = createRequire(import.meta.url);
  const { default: Ajv } = require("ajv") as typeof AjvModule;
  const { default: addFormats } = require("ajv-formats") as typeof formatsModule;
  const made = new Ajv({ allErrors: true, strict: true, strictTypes: false, logger: false });
  const formats = Object.keys(FORMAT_WORDS).filter((f) => f !== "date-time") as FormatName[];
  addFormats(made, { mode: "full", formats });
  made.addFormat("date-time", { type: "string", validate: (text: string) => instantOf(text) !== null });
  compiler = made;
  return made;
}

const compiled = new WeakMap<object, ValidateFunction>();

function validatorOf(schema: object): ValidateFunction {
  const known = compiled.get(schema);
  if (known !== undefined) return known;
  const made = ajv().compile(schema);
  compiled.set(schema, made);
  return made;
}

/** Unexpected, then missing, then each parameter's first problem in schema order; null when valid. */
export function argumentsProblem(schema: ParameterSchema, args: unknown): ArgumentProblem | null {
  if (typeof args !== "object" || args === null || Array.isArray(args))
    return { code: "invalid_type", message: "arguments must be a JSON object" };
  const record = args as Record<string, unknown>;
  const { properties, required } = schema;
  const unexpected = Object.keys(record).filter((k) => !Object.hasOwn(properties, k));
  if (unexpected.length > 0)
    return { code: "unexpected_arguments", message: `unexpected argument(s): ${unexpected.join(", ")}` };
  const missing = required.filter((k) => !Object.hasOwn(record, k));
  if (missing.length > 0)
    return {
      code: "missing_required_argument",
      message: `missing required argument(s): ${missing.join(", ")}`,
    };
  const validate = validatorOf(schema);
  if (validate(record)) return null;
  const order = Object.keys(properties);
  return firstProblem(validate.errors ?? [], (error) => order.indexOf(topName(error.instancePath)));
}

/** The first problem of one value against one parameter's schema (a rule's literal); null when valid. */
export function valueProblem(
  name: string,
  schema: Readonly<Record<string, unknown>>,
  value: unknown,
): ArgumentProblem | null {
  const validate = validatorOf(schema);
  if (validate(value)) return null;
  return firstProblem(validate.errors ?? [], () => 0, name);
}

function firstProblem(
  errors: readonly ErrorObject[],
  parameterIndex: (error: ErrorObject) => number,
  name?: string,
): ArgumentProblem {
  const rank = (k: string) => (KEYWORD_ORDER.includes(k) ? KEYWORD_ORDER.indexOf(k) : KEYWORD_ORDER.length);
  // A stable sort: ajv's own order (the schema's) breaks ties.
  const sorted = [...errors].sort(
    (a, b) => parameterIndex(a) - parameterIndex(b) || rank(a.keyword) - rank(b.keyword),
  );
  const error = sorted[0];
  if (error === undefined) return { code: "invalid_argument_value", message: "arguments are not valid" };
  return describe(
    error,
    name === undefined ? pathName(error.instancePath) : pathName(error.instancePath, name),
  );
}

/** `/page_size` → page_size, `/tags/0` → tags[0], `/filter/from` → filter.from. */
function pathName(instancePath: string, root?: string): string {
  const parts = instancePath
    .split("/")
    .slice(1)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  const [first, ...rest] = root === undefined ? parts : [root, ...parts];
  return rest.reduce((at, p) => (/^\d+$/.test(p) ? `${at}[${p}]` : `${at}.${p}`), first ?? "arguments");
}

function topName(instancePath: string): string {
  return (instancePath.split("/")[1] ?? "").replace(/~1/g, "/").replace(/~0/g, "~");
}

function shown(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function describe(error: ErrorObject, name: string): ArgumentProblem {
  const p = error.params as Record<string, unknown>;
  const value = (message: string): ArgumentProblem => ({
    code: "invalid_argument_value",
    message: `${name} ${message}`,
  });
  switch (error.keyword) {
    case "type":
      return { code: "invalid_type", message: `${name} must be ${shown(p["type"])}` };
    case "format":
      return {
        code: "invalid_format",
        message: `${name} must be ${FORMAT_WORDS[String(p["format"])] ?? `in the format ${shown(p["format"])}`}`,
      };
    case "pattern":
      return { code: "invalid_format", message: `${name} must match the pattern ${shown(p["pattern"])}` };
    case "enum":
      return value(`must be one of: ${(p["allowedValues"] as unknown[]).map(shown).join(", ")}`);
    case "const":
      return value(`must be ${shown(p["allowedValue"])}`);
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return value(`must be ${shown(p["comparison"])} ${shown(p["limit"])}`);
    case "minLength":
      return value(`must be at least ${shown(p["limit"])} character(s) long`);
    case "maxLength":
      return value(`must be at most ${shown(p["limit"])} character(s) long`);
    case "minItems":
      return value(`must list at least ${shown(p["limit"])} item(s)`);
    case "maxItems":
      return value(`must list at most ${shown(p["limit"])} item(s)`);
    case "uniqueItems":
      return value("must not list an item twice");
    case "multipleOf":
      return value(`must be a multiple of ${shown(p["multipleOf"])}`);
    case "additionalProperties":
      return value(`has an unexpected member ${shown(p["additionalProperty"])}`);
    case "required":
      return value(`is missing the member ${shown(p["missingProperty"])}`);
    default:
      return value(error.message ?? "is not valid");
  }
}
