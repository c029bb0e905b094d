/**
 * The Discover → Call API key comes from `QVERIS_API_KEY` and nowhere else: never a flag (it would
 * sit in shell history and process lists) and never written to a record, a log or a message.
 */
import { usageError } from "../core/index.ts";

export const API_KEY_VARIABLE = "QVERIS_API_KEY";

export function resolveApiKey(env: Readonly<Record<string, string | undefined>>): string {
  return checkApiKey(env[API_KEY_VARIABLE]);
}

/** The trimmed key; a missing one, or one with spaces or control characters, is refused (exit 2). */
export function checkApiKey(value: string | undefined): string {
  const key = value?.trim() ?? "";
  if (key === "") throw usageError("missing_api_key", `set ${API_KEY_VARIABLE} in the environment`);
  // Such a key cannot go in a header; fetch would fail later with a message that is no help.
  if (/[\s\p{Cc}]/u.test(key))
    throw usageError("bad_api_key", `${API_KEY_VARIABLE} contains spaces or control characters`);
  return key;
}
