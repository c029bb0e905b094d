/**
 * Verified worlds, remembered: once a corpus has passed every identity and content check against a
 * protocol, plan and catalogs, a marker named by the SHA-256 of all those files' bytes (and of
 * fabench's version and this check's version) is kept in the user's cache folder. The next command
 * on the same bytes still reads and hashes every file — one changed byte is another key — but
 * skips the content checks. A marker that is missing, unreadable or malformed is no marker: the
 * checks run. A folder that cannot be written is no cache: the command works without it.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { sha256Hex, toolInstalled, toolRoot, toolVersion, writeFileAtomic } from "../core/index.ts";

/**
 * Raise this whenever a check the corpus passes changes (src/authoring/check, the unit table, the
 * task schema): every marker made by the older checks then stops matching. (In a development
 * checkout the sources' own hash is in the key as well: see `checkCodeIdentity`.)
 */
export const CHECK_CODE_VERSION = 1;

const identities = new Map<string, string>();

/**
 * What the checking code is: an installed package's version names its code; in a development
 * checkout the code changes under the same version, so the SHA-256 of every source file (path and
 * bytes) is added — an edited check never reuses a marker made by the code before the edit.
 */
export function checkCodeIdentity(): string {
  const src = join(toolRoot(), "src");
  const installed = toolInstalled() || !existsSync(src);
  const known = identities.get(`${installed}:${src}`);
  if (known !== undefined) return known;
  let identity = toolVersion();
  if (!installed) {
    const hash = createHash("sha256");
    for (const file of sourcesUnder(src).sort())
      hash.update(`${relative(src, file)}\u0000`).update(readFileSync(file));
    identity = `${identity}+${hash.digest("hex")}`;
  }
  identities.set(`${installed}:${src}`, identity);
  return identity;
}

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourcesUnder(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

const FORMAT = "fabench-verified-world-v1";

/** What a marker says: the checked corpus's task hash, which the checks would otherwise compute. */
export interface VerifiedWorlds {
  /** The corpus's `tasks_sha256` when this key was verified before, else null. */
  recall(key: string): string | null;
  /** Remembers a verified key; never throws (a cache that cannot be written is skipped). */
  remember(key: string, tasksSha256: string): void;
}

/** The key of a world: the checking code (`checkCodeIdentity`), the check's version and every file's SHA-256, in order. */
export function verifiedWorldKey(code: string, fileSha256s: readonly string[]): string {
  return sha256Hex(JSON.stringify([FORMAT, code, CHECK_CODE_VERSION, ...fileSha256s]));
}

const HEX64 = /^[0-9a-f]{64}$/;

/** The markers kept in `<cacheDir>/verified-worlds/`, or null without a cache folder. */
export function verifiedWorldsIn(cacheDir: string | null): VerifiedWorlds | null {
  if (cacheDir === null) return null;
  const folder = join(cacheDir, "verified-worlds");
  const file = (key: string) => join(folder, `${key}.json`);
  return {
    recall(key) {
      if (!HEX64.test(key)) return null;
      try {
        const marker = JSON.parse(readFileSync(file(key), "utf8")) as Record<string, unknown>;
        const tasks = marker["tasks_sha256"];
        const ok = marker["format"] === FORMAT && marker["key"] === key;
        return ok && typeof tasks === "string" && HEX64.test(tasks) ? tasks : null;
      } catch {
        return null;
      }
    },
    remember(key, tasksSha256) {
      try {
        mkdirSync(folder, { recursive: true });
        const marker = { format: FORMAT, key, tasks_sha256: tasksSha256 };
        writeFileAtomic(file(key), `${JSON.stringify(marker)}\n`);
      } catch {
        // A read-only home, a full disk: the next command checks again, which is only slower.
      }
    },
  };
}
