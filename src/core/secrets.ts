/**
 * Key values never reach a line fabench shows. A child (a command router, an agent) may print
 * what it was given or found — a token in a debug line, a provider's error body quoting the key —
 * and fabench quotes some child output in its errors, which end up in terminals and CI logs. So
 * every quoted text has each known key value replaced by `[redacted]` first.
 */

/** The variables fabench itself treats as keys (hidden from 4 characters on: a shorter value is a word, not a key). */
export const KEY_VARIABLES = [
  "ANTHROPIC_API_KEY",
  "OPENAI_API_KEY",
  "FABENCH_SERVE_API_KEY",
  "QVERIS_API_KEY",
  "FABENCH_JUDGE_API_KEY",
] as const;

/** Any other variable named like a credential, with a value long enough not to be a word. */
const KEY_NAME = /(_API_KEY|_TOKEN|_SECRET|_PASSWORD)$/i;
const MIN_KEY_LENGTH = 8;
const MIN_NAMED_KEY_LENGTH = 4;

export const REDACTED = "[redacted]";

/** The values to hide: longest first, so a key containing another is hidden whole. */
export function knownKeyValues(env: Readonly<Record<string, string | undefined>>): string[] {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const named = (KEY_VARIABLES as readonly string[]).includes(name.toUpperCase());
    if (
      value.trim().length >= (named ? MIN_NAMED_KEY_LENGTH : MIN_KEY_LENGTH) &&
      (named || KEY_NAME.test(name))
    )
      values.add(value);
  }
  return [...values].sort((a, b) => b.length - a.length);
}

/**
 * The key values of the environment the command runs in, set by the CLI's entry (the one place
 * that reads the environment) before any child starts: quoting child output happens deep inside a
 * stage, which should not have to carry the environment to every place that quotes.
 */
let remembered: readonly string[] = [];

export function rememberKeyValues(env: Readonly<Record<string, string | undefined>>): void {
  remembered = knownKeyValues(env);
}

/** `text` with every known key value (those remembered, or of `env`) replaced by `[redacted]`. */
export function redactSecrets(text: string, env?: Readonly<Record<string, string | undefined>>): string {
  let shown = text;
  for (const value of env === undefined ? remembered : knownKeyValues(env))
    shown = shown.split(value).join(REDACTED);
  return shown;
}
