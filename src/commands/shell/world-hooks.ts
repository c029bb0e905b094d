/**
 * What a command hands the world loader from its shell: the verified-world cache in the user's
 * cache folder (from the environment the command was given), and — on a terminal only — one line
 * on stderr per step while the world loads. Piped output and `--json` stay exactly as they were.
 */
import { userCacheDir } from "../../core/index.ts";
import { verifiedWorldsIn, type CheckHooks } from "../../world/index.ts";
import type { CliIo } from "./io.ts";

export function worldHooks(io: CliIo, json = false): CheckHooks {
  const verified = verifiedWorldsIn(userCacheDir(io.env ?? {}));
  if (io.isTty !== true || json) return { verified };
  return { verified, progress: (line) => io.err(`${line}\n`) };
}
