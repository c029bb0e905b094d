/**
 * The readable catalog spec: a tool is a name, a description and its endpoints; an endpoint is a
 * name, what it does, its JSON Schema parameters, what it returns, whether it reads, writes or
 * destroys, and its replies. The spec files (base/, hard-negatives/, distractors/) are written
 * with the small helpers below and turned into catalog endpoints by `toEndpoints`.
 */
import type { Endpoint, EndpointOutput, EndpointRole, Replies } from "./schema.ts";

export type ParamSchema = Readonly<Record<string, unknown>>;

export type Access = "read" | "write" | "destructive";

export type ReplyTemplate = Readonly<Record<string, unknown>>;

export interface ReplySpec {
  readonly not_found?: ReplyTemplate;
  readonly validation_error?: ReplyTemplate;
  readonly empty?: ReplyTemplate;
  readonly success?: ReplyTemplate;
  /** A lookup of a known entity with nothing recorded; by default generated from the outputs (`existsBody`). */
  readonly exists?: ReplyTemplate;
  /** The envelope a success body is sent in (a reply style's), for the generated `exists` reply. */
  readonly wrap?: (body: ReplyTemplate) => ReplyTemplate;
  /** Which reply answers an unscripted call; by default success for a write, else empty, else not_found. */
  readonly unmatched?: Replies["unmatched"];
}

export interface EndpointSpec {
  readonly name: string;
  readonly description: string;
  readonly params: Readonly<Record<string, ParamSchema>>;
  readonly required: readonly string[];
  readonly access: Access;
  readonly outputs: readonly EndpointOutput[];
  readonly replies: ReplySpec;
  /** Hard negatives only: the base route this one is built to be mistaken for. */
  readonly imitates?: string;
}

export interface ToolSpec {
  readonly tool: string;
  readonly description: string;
  readonly endpoints: readonly EndpointSpec[];
}

// ── parameters ──────────────────────────────────────────────────────────────────────────────

export const str = (description: string, extra: Record<string, unknown> = {}): ParamSchema => ({
  type: "string",
  description,
  ...extra,
});

export const oneOf = (values: readonly string[], description: string, fallback?: string): ParamSchema => ({
  type: "string",
  enum: [...values],
  description,
  ...(fallback === undefined ? {} : { default: fallback }),
});

export const int = (
  description: string,
  bounds: { minimum?: number; maximum?: number; default?: number } = {},
): ParamSchema => ({ type: "integer", description, ...bounds });

export const num = (
  description: string,
  bounds: { minimum?: number; maximum?: number } = {},
): ParamSchema => ({
  type: "number",
  description,
  ...bounds,
});

export const bool = (description: string, fallback?: boolean): ParamSchema => ({
  type: "boolean",
  description,
  ...(fallback === undefined ? {} : { default: fallback }),
});

export const date = (description: string): ParamSchema => ({ type: "string", format: "date", description });

export const instant = (description: string): ParamSchema => ({
  type: "string",
  format: "date-time",
  description,
});

export const strList = (description: string, values?: readonly string[]): ParamSchema => ({
  type: "array",
  items: values === undefined ? { type: "string" } : { type: "string", enum: [...values] },
  description,
});

export const pageSize = (maximum: number, fallback: number): ParamSchema =>
  int(`results per page, 1–${maximum} (default ${fallback})`, { minimum: 1, maximum, default: fallback });

export const pageToken = (): ParamSchema =>
  str("next_page_token of the previous page; omit for the first page");

// ── outputs ─────────────────────────────────────────────────────────────────────────────────

export const out = (
  name: string,
  type: EndpointOutput["type"],
  description: string,
  unit: string | null = null,
): EndpointOutput => ({ name, type, unit, description });

// ── assembling ──────────────────────────────────────────────────────────────────────────────

function replies(spec: EndpointSpec): Replies {
  const r = spec.replies;
  const unmatched =
    r.unmatched ??
    (spec.access !== "read" && r.success
      ? "success"
      : r.empty
        ? "empty"
        : r.not_found
          ? "not_found"
          : undefined);
  if (unmatched === undefined)
    throw new Error(`catalog spec: ${spec.name} has no reply for an unscripted call`);
  // A lookup that can answer not-found can also find an entity that exists with nothing recorded.
  const exists =
    spec.access === "read" && r.not_found
      ? (r.exists ?? (r.wrap ?? ((b) => b))(existsBody(spec)))
      : undefined;
  return {
    unmatched,
    ...(r.not_found ? { not_found: r.not_found } : {}),
    ...(r.validation_error ? { validation_error: r.validation_error } : {}),
    ...(r.empty ? { empty: r.empty } : {}),
    ...(r.success ? { success: r.success } : {}),
    ...(exists ? { exists } : {}),
  } as Replies;
}

/**
 * The body of an existing entity with nothing recorded, from the outputs alone: a list is empty,
 * an object is empty (the replay fills it with the row a list showed for the entity), an output
 * named like a required parameter echoes the argument, any other value is null.
 */
export function existsBody(spec: EndpointSpec): ReplyTemplate {
  const body: Record<string, unknown> = {};
  for (const output of spec.outputs)
    body[output.name] =
      output.type === "array"
        ? []
        : output.type === "object"
          ? {}
          : spec.required.includes(output.name)
            ? `{${output.name}}`
            : null;
  return body;
}

/** A tool's endpoints as catalog endpoints, each marked with the role of the list it comes from. */
export function toEndpoints(tool: ToolSpec, role: EndpointRole): Endpoint[] {
  return tool.endpoints.map((e) => ({
    route_id: `${tool.tool}.${e.name}`,
    tool: tool.tool,
    endpoint: e.name,
    function_name: `${tool.tool}__${e.name}`,
    tool_description: tool.description,
    description: e.description,
    parameters: {
      type: "object" as const,
      properties: Object.fromEntries(Object.entries(e.params).map(([k, v]) => [k, { ...v }])),
      required: [...e.required],
      additionalProperties: false as const,
    },
    read_only: e.access === "read",
    destructive: e.access === "destructive",
    outputs: [...e.outputs],
    role,
    ...(e.imitates === undefined ? {} : { imitates: e.imitates }),
    replies: replies(e),
  }));
}
