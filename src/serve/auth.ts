/**
 * The bearer key check, in constant time: what the request sent is copied into a buffer as long as
 * the key (at least 256 bytes), zero-padded, and compared with the key padded the same way by
 * `timingSafeEqual`; the lengths are compared only after. So neither the key's length nor how much
 * of it a guess got right shows in the time a refusal takes — only the guess's own length does.
 * (Hashing both sides did the same at a few microseconds a request: OpenSSL looks the digest up on
 * every call.)
 */
import { randomBytes, timingSafeEqual } from "node:crypto";

/** The compared width: the key's length, and never less than this (so a short key's length is hidden too). */
const MIN_WIDTH = 256;

/** A check of the `authorization` header against `key`: `Bearer <key>`, the scheme in any case. */
export function bearerCheck(key: string): (header: string | undefined) => boolean {
  const expected = Buffer.from(key, "utf8");
  const width = Math.max(MIN_WIDTH, expected.length);
  const padded = Buffer.alloc(width);
  expected.copy(padded);
  // One buffer per server, refilled per request: the check is synchronous, so requests never share it.
  const given = Buffer.alloc(width);
  return (header) => {
    const token = /^bearer +(\S+) *$/i.exec(header ?? "")?.[1] ?? "";
    given.fill(0);
    // A token longer than the width cannot be the key; its first bytes are still compared, so it
    // takes the same time as any other guess.
    given.write(token, "utf8");
    const same = timingSafeEqual(given, padded);
    return same && token !== "" && Buffer.byteLength(token, "utf8") === expected.length;
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
