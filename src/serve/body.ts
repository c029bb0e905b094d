/**
 * Reading a request body under a byte limit, and the checks between its bytes and a handler: a
 * declared length over the limit is refused before a byte is read, a streamed one as soon as it
 * passes the limit (what arrived so far is dropped, never the whole body held), invalid UTF-8 and
 * invalid JSON are malformed, and JSON nested deeper than any real request is refused before a
 * handler walks it recursively.
 */
import type { IncomingMessage } from "node:http";

export type BodyRead =
  | { readonly kind: "ok"; readonly bytes: Buffer }
  | { readonly kind: "too_large" }
  | { readonly kind: "aborted" };

/** Whether the request says it has more than `limit` bytes (Content-Length). */
export function declaredTooLarge(req: IncomingMessage, limit: number): boolean {
  const declared = req.headers["content-length"];
  return declared !== undefined && /^\d+$/.test(declared) && Number(declared) > limit;
}

/** A body being read: kept on the request under READING, so the listeners are shared functions. */
interface Reading {
  readonly chunks: Buffer[];
  size: number;
  readonly limit: number;
  readonly resolve: (read: BodyRead) => void;
}

const READING = Symbol("fabench.serve.reading");
type Readable = IncomingMessage & { [READING]?: Reading | undefined };

function settle(req: Readable, read: BodyRead): void {
  const reading = req[READING];
  if (reading === undefined) return;
  req[READING] = undefined;
  req.off("data", onData).off("end", onEnd).off("error", onAbort).off("close", onAbort);
  reading.resolve(read);
}

function onData(this: Readable, chunk: Buffer): void {
  const reading = this[READING];
  if (reading === undefined) return;
  reading.size += chunk.byteLength;
  if (reading.size > reading.limit) {
    reading.chunks.length = 0;
    settle(this, { kind: "too_large" });
  } else reading.chunks.push(chunk);
}

function onEnd(this: Readable): void {
  const reading = this[READING];
  if (reading === undefined) return;
  const { chunks, size } = reading;
  // One chunk (most bodies) is the body as it is: no copy.
  settle(this, {
    kind: "ok",
    bytes: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size),
  });
}

function onAbort(this: Readable): void {
  settle(this, { kind: "aborted" });
}

/**
 * The body, or why not: past `limit` bytes the read stops at once (what arrived is dropped). The
 * listeners are the same functions for every request (a request's state rides on it), which under
 * load is garbage a server does not make per request.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    (req as Readable)[READING] = { chunks: [], size: 0, limit, resolve };
    req.on("data", onData).on("end", onEnd).on("error", onAbort).on("close", onAbort);
  });
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

export type JsonRead = { readonly ok: true; readonly value: unknown } | { readonly ok: false };

export function parseJsonBody(bytes: Buffer): JsonRead {
  try {
    return { ok: true, value: JSON.parse(utf8.decode(bytes)) as unknown };
  } catch {
    return { ok: false };
  }
}

// The depth check lives in core (json-bounded.ts): every boundary of fabench uses the same one.
export { nestedDeeperThan } from "../core/index.ts";
