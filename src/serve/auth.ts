/**
 * The bearer key check. Both the expected key and what the request sent are hashed first, so the
 * comparison is of two equal-length digests in constant time: neither the key's length nor how
 * much of it a guess got right shows in the time a refusal takes.
 */
import * as crypto from "node:crypto";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

type OneShot = (algorithm: string, data: string, encoding: "buffer") => Buffer;
// Node's one-shot `crypto.hash` (20.12+) is about three times cheaper per request than a Hash
// object; the same digest either way, and the object where the one-shot is missing (20.6–20.11).
const oneShot = (crypto as { hash?: OneShot }).hash;
const digest: (text: string) => Buffer =
  oneShot === undefined
    ? (text) => createHash("sha256").update(text, "utf8").digest()
    : (text) => oneShot("sha256", text, "buffer");

/** A check of the `authorization` header against `key`: `Bearer <key>`, the scheme in any case. */
export function bearerCheck(key: string): (header: string | undefined) => boolean {
  const expected = digest(key);
  return (header) => {
    const match = /^bearer +(\S+) *$/i.exec(header ?? "");
    // Hashed even when the header does not parse, so a malformed header takes the same time.
    const same = timingSafeEqual(digest(match?.[1] ?? ""), expected);
    return same && match !== null;
  };
}

/** A key for one run of the server: 32 random bytes, URL-safe, no characters a header refuses. */
export function randomKey(): string {
  return `fbk_${randomBytes(32).toString("base64url")}`;
}

/** Why a chosen key cannot be used, or null: empty, or spaces and control characters (not a header value). */
export function keyProblem(key: string): string | null {
  if (key.trim() === "") return "is empty";
  if (/[\s\p{Cc}]/u.test(key)) return "contains spaces or control characters";
  return null;
}
