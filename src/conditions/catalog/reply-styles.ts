/**
 * Error and list conventions real APIs follow, so that every hard-negative and distractor service
 * answers an unscripted call in the style of its own API family: RFC 9457 problem details,
 * Google's JSON errors, JSON:API, Slack-like `ok` flags, Spring Boot, OData, GraphQL and SOAP-like
 * faults. A tool picks one style; each endpoint names its own noun, id and list, so the words differ
 * route by route while the envelope stays the tool's.
 */
import type { ReplySpec, ReplyTemplate } from "./spec.ts";

export type StyleName = "problem" | "google" | "jsonapi" | "slack" | "spring" | "odata" | "graphql" | "fault";

export interface ReplyStyle {
  /** A lookup by id: not-found in the style's words, naming the noun and the id argument. */
  get(noun: string, idParam: string): ReplySpec;
  /** A list or search: its empty result under `key`. */
  list(key: string): ReplySpec;
  /** A write or destructive call: its success body, and a not-found when it acts on an id. */
  write(success: ReplyTemplate, target?: readonly [noun: string, idParam: string]): ReplySpec;
}

const snake = (noun: string) => noun.replace(/[^a-z0-9]+/g, "_");
const camel = (noun: string) => snake(noun).replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const pascal = (noun: string) => camel(noun).replace(/^[a-z]/, (c) => c.toUpperCase());

interface Envelope {
  notFound(noun: string, idParam: string): ReplyTemplate;
  invalid: ReplyTemplate;
  empty(key: string): ReplyTemplate;
  success(body: ReplyTemplate): ReplyTemplate;
}

const ENVELOPES: Record<StyleName, Envelope> = {
  problem: {
    notFound: (noun, id) => ({
      type: `about:blank#${snake(noun)}-not-found`,
      title: `${pascal(noun)} not found`,
      status: 404,
      detail: `no ${noun} with ${id} {${id}}`,
    }),
    invalid: { type: "about:blank#invalid", title: "Invalid request", status: 400, detail: "{@message}" },
    empty: (key) => ({ [key]: [], total: 0 }),
    success: (body) => body,
  },
  google: {
    notFound: (noun, id) => ({
      error: { code: 404, status: "NOT_FOUND", message: `${noun} '{${id}}' not found` },
    }),
    invalid: { error: { code: 400, status: "INVALID_ARGUMENT", message: "{@message}" } },
    empty: (key) => ({ [camel(key)]: [], nextPageToken: "" }),
    success: (body) => body,
  },
  jsonapi: {
    notFound: (noun, id) => ({
      errors: [{ status: "404", code: `${snake(noun)}_not_found`, detail: `${noun} {${id}} does not exist` }],
    }),
    invalid: { errors: [{ status: "422", code: "invalid_parameter", detail: "{@message}" }] },
    empty: () => ({ data: [], meta: { total: 0 } }),
    success: (body) => ({ data: body }),
  },
  slack: {
    notFound: (noun) => ({ ok: false, error: `${snake(noun)}_not_found` }),
    invalid: { ok: false, error: "invalid_arguments", detail: "{@message}" },
    empty: (key) => ({ ok: true, [key]: [], response_metadata: { next_cursor: "" } }),
    success: (body) => ({ ok: true, ...body }),
  },
  spring: {
    notFound: (noun, id) => ({
      status: 404,
      error: "Not Found",
      message: `${pascal(noun)} {${id}} not found`,
    }),
    invalid: { status: 400, error: "Bad Request", message: "{@message}" },
    empty: () => ({ content: [], totalElements: 0, totalPages: 0, number: 0 }),
    success: (body) => body,
  },
  odata: {
    notFound: (noun, id) => ({
      error: { code: "ResourceNotFound", message: `The ${noun} '{${id}}' was not found.`, target: id },
    }),
    invalid: { error: { code: "BadRequest", message: "{@message}" } },
    empty: () => ({ "@odata.count": 0, value: [] }),
    success: (body) => body,
  },
  graphql: {
    notFound: (noun, id) => ({
      data: null,
      errors: [{ message: `${pascal(noun)} not found: {${id}}`, extensions: { code: "NOT_FOUND" } }],
    }),
    invalid: { data: null, errors: [{ message: "{@message}", extensions: { code: "BAD_USER_INPUT" } }] },
    empty: (key) => ({ data: { [camel(key)]: { nodes: [], pageInfo: { hasNextPage: false } } } }),
    success: (body) => ({ data: body }),
  },
  fault: {
    notFound: (noun, id) => ({
      fault: { faultcode: "Client.NotFound", faultstring: `Unknown ${noun} {${id}}` },
    }),
    invalid: { fault: { faultcode: "Client.Validation", faultstring: "{@message}" } },
    empty: (key) => ({ [key]: [], count: 0 }),
    success: (body) => ({ result: "OK", ...body }),
  },
};

export function replyStyle(name: StyleName): ReplyStyle {
  const envelope = ENVELOPES[name];
  return {
    get: (noun, idParam) => ({
      not_found: envelope.notFound(noun, idParam),
      validation_error: envelope.invalid,
      wrap: envelope.success,
    }),
    list: (key) => ({ empty: envelope.empty(key), validation_error: envelope.invalid }),
    write: (success, target) => ({
      success: envelope.success(success),
      validation_error: envelope.invalid,
      ...(target === undefined ? {} : { not_found: envelope.notFound(target[0], target[1]) }),
    }),
  };
}
