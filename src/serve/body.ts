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

export function readBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (read: BodyRead) => {
      req.off("data", onData).off("end", onEnd).off("error", onAbort).off("close", onAbort);
      resolve(read);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        chunks.length = 0;
        settle({ kind: "too_large" });
      } else chunks.push(chunk);
    };
    // One chunk (most bodies) is the body as it is: no copy.
    const onEnd = () =>
      settle({
        kind: "ok",
        bytes: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size),
      });
    const onAbort = () => settle({ kind: "aborted" });
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
