/**
 * Reply templates: how a route answers a call its task's fixture does not script, in the route's
 * own words. Pure: a template and a call's arguments in, JSON out; the same call, the same bytes.
 *
 * Placeholder syntax, inside any string of a template (object keys are never templated):
 *
 * - `{name}` — the call's argument `name`, which must be a parameter of the endpoint. When the
 *   call omits it, the parameter's schema `default` stands in; without a default, nothing (the
 *   empty string). Inside a longer string the value is written as text (a string as it is, any
 *   other value as compact JSON).
 * - A string that is exactly one placeholder (`"{page_size}"`) becomes the value itself, keeping
 *   its JSON type (a number stays a number); `null` when omitted without a default.
 * - `{@id}` — an id derived from the route and the call's arguments (the id a write reports for
 *   what it created: `"RSV-{@id}"`): the context's `idShape` with every `#` a digit of the call's
 *   hash (the replay gives the shape of the service's own ids: `BK-{@id}` → `BK-6308`-like); 8
 *   upper-case hex digits when no shape is given.
 * - `{@message}` — in `validation_error` only: what is wrong with the arguments.
 * - `{{` and `}}` — a literal `{` and `}`.
 *
 * A placeholder naming anything else is a mistake in the catalog spec; `templateProblems` finds it.
 */
import { canonicalJson, sha256Hex } from "../../core/index.ts";
import type { Endpoint, ReplyKind } from "./schema.ts";

const PLACEHOLDER = /\{\{|\}\}|\{(@?[a-z][a-z0-9_]*)\}/g;
const WHOLE = /^\{(@?[a-z][a-z0-9_]*)\}$/;

export interface ReplyContext {
  readonly routeId: string;
  readonly parameters: Endpoint["parameters"];
  readonly args: Readonly<Record<string, unknown>>;
  /** The validation problem, for `{@message}`. */
  readonly message?: string;
  /** The shape of `{@id}`: `#` a digit of the call's hash, anything else itself (`2026-####`). */
  readonly idShape?: string;
  /** The service's own prefix for a template's (`EXP-{@id}` written `JOB-…` where the service's jobs are `JOB-88120`). */
  readonly idPrefix?: { readonly from: string; readonly to: string };
  /** Whether an id (the `{@id}` part) is already an entity's: a write never reports an existing id as new. */
  readonly idTaken?: (id: string) => boolean;
}

function callId(context: ReplyContext): string {
  const hash = sha256Hex(`${context.routeId}\n${canonicalJson(context.args)}`);
  const shape = context.idShape;
  if (shape === undefined) return hash.slice(0, 8).toUpperCase();
  // The hash as a decimal number; its last digits, in order, fill the shape (a longer shape repeats
  // them). An id the world already holds takes the digits before them instead, and so on.
  const count = (shape.match(/#/g) ?? []).length;
  let digits = BigInt(`0x${hash}`).toString(10);
  while (digits.length < 2 * count) digits += digits;
  let id = shape;
  for (let end = digits.length; end >= count; end -= count) {
    const tail = digits.slice(end - count, end);
    let at = 0;
    id = shape.replace(/#/g, () => tail[at++] as string);
    if (!context.idTaken?.(id)) break;
  }
  return id;
}

/** How a write's `{@id}` is written: its shape, and the service's prefix where it differs from the template's. */
export interface IdFormat {
  readonly shape: string;
  readonly prefix?: { readonly from: string; readonly to: string };
  readonly taken?: (id: string) => boolean;
}

/** The value a placeholder stands for; `undefined` when nothing does. */
function valueOf(name: string, context: ReplyContext): unknown {
  if (name === "@id") return callId(context);
  if (name === "@message") return context.message;
  if (Object.hasOwn(context.args, name)) return context.args[name];
  return context.parameters.properties[name]?.["default"];
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : canonicalJson(value);
}

function fill(template: unknown, context: ReplyContext): unknown {
  if (typeof template === "string") {
    const prefix = context.idPrefix;
    if (prefix !== undefined && template.startsWith(`${prefix.from}{@id}`)) {
      const { idPrefix: _, ...rest } = context;
      return fill(prefix.to + template.slice(prefix.from.length), rest);
    }
    const whole = WHOLE.exec(template);
    if (whole) return valueOf(whole[1] as string, context) ?? null;
    return template.replace(PLACEHOLDER, (token, name: string | undefined) =>
      token === "{{" ? "{" : token === "}}" ? "}" : asText(valueOf(name as string, context)),
    );
  }
  if (Array.isArray(template)) return template.map((t) => fill(t, context));
  if (typeof template === "object" && template !== null)
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, fill(v, context)]));
  return template;
}

/** A template with its placeholders filled from a call. */
export function renderTemplate(template: unknown, context: ReplyContext): unknown {
  return fill(template, context);
}

/** The endpoint's reply of one kind for a call, or null when the endpoint has none of that kind. */
export function renderReply(
  endpoint: Endpoint,
  kind: ReplyKind,
  args: Readonly<Record<string, unknown>>,
  message?: string,
  id?: IdFormat,
): Record<string, unknown> | null {
  const template = endpoint.replies?.[kind];
  if (template === undefined) return null;
  return renderTemplate(template, {
    routeId: endpoint.route_id,
    parameters: endpoint.parameters,
    args,
    ...(message === undefined ? {} : { message }),
    ...(id === undefined ? {} : { idShape: id.shape }),
    ...(id?.prefix === undefined ? {} : { idPrefix: id.prefix }),
    ...(id?.taken === undefined ? {} : { idTaken: id.taken }),
  }) as Record<string, unknown>;
}

/**
 * The reply of a schema-valid call no fixture response matches, as an observation: the route's
 * `replies.unmatched` body, under `result` for a success or an empty list, under `error` for a
 * not-found. Null when the endpoint has no replies (a catalog built before they existed).
 */
export function unmatchedObservation(
  endpoint: Endpoint,
  args: Readonly<Record<string, unknown>>,
  id?: IdFormat,
  kind: ReplyKind | undefined = endpoint.replies?.unmatched,
): Record<string, unknown> | null {
  if (kind === undefined) return null;
  const body = renderReply(endpoint, kind, args, undefined, id);
  if (body === null) return null;
  return kind === "not_found"
    ? { status: "not_found", error: body }
    : { status: "ok", result: body, sources: [] };
}

/**
 * The reply to a call whose arguments the endpoint's schema refuses, as an observation: the route's
 * `replies.validation_error` body, `{@message}` filled with the problem, under `error` (so an agent
 * reads it as the failure it is). Null when the endpoint has no such template.
 */
export function validationObservation(
  endpoint: Endpoint,
  args: Readonly<Record<string, unknown>>,
  message: string,
): Record<string, unknown> | null {
  const body = renderReply(endpoint, "validation_error", args, message);
  return body === null ? null : { status: "error", error: body };
}

/** Every string of a template, with where it sits, for the placeholder check. */
function strings(template: unknown, at: string, out: Array<[string, string]>): Array<[string, string]> {
  if (typeof template === "string") out.push([at, template]);
  else if (Array.isArray(template)) template.forEach((t, i) => strings(t, `${at}/${i}`, out));
  else if (typeof template === "object" && template !== null)
    for (const [k, v] of Object.entries(template)) strings(v, `${at}/${k}`, out);
  return out;
}

/** Placeholders that name no parameter of the endpoint, `{@message}` outside validation_error, stray braces. */
export function templateProblems(endpoint: Endpoint): string[] {
  const problems: string[] = [];
  const params = new Set(Object.keys(endpoint.parameters.properties));
  for (const [kind, template] of Object.entries(endpoint.replies ?? {})) {
    if (kind === "unmatched") continue;
    for (const [at, text] of strings(template, kind, [])) {
      const names = [...text.matchAll(PLACEHOLDER)].map((m) => m[1]).filter((n) => n !== undefined);
      for (const name of names) {
        const known =
          name === "@id" || (name === "@message" && kind === "validation_error") || params.has(name);
        if (!known) problems.push(`${endpoint.route_id} ${at}: placeholder {${name}} names nothing it may`);
      }
      if (/[{}]/.test(text.replace(PLACEHOLDER, "")))
        problems.push(`${endpoint.route_id} ${at}: a brace that is not a placeholder (write {{ or }})`);
    }
  }
  return problems;
}
