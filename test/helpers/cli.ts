/** Drives the CLI in-process (no spawn) and captures what it prints. */
import { main } from "../../src/cli.ts";
import type { RunWriterFs } from "../../src/conditions/runner/index.ts";

export interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

export interface CliOptions {
  /**
   * The environment the CLI sees (API keys, FABENCH_DEBUG, PATH for subprocesses). Absent: an
   * empty environment. Tests pass keys here and never touch `process.env`.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The file operations `run` appends with (a full disk, say). */
  readonly runWriterFs?: RunWriterFs;
}

export async function runCli(argv: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  let out = "";
  let err = "";
  const code = await main(argv, {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    ...(options.env ? { env: withoutUserCache(options.env) } : {}),
    ...(options.runWriterFs ? { runWriterFs: options.runWriterFs } : {}),
  });
  return { code, out, err };
}

/**
 * A test's CLI never writes the user's cache folder: unless the test names a cache folder (or says
 * FABENCH_NO_CACHE itself), the verified-world cache is off.
 */
function withoutUserCache(env: Readonly<Record<string, string | undefined>>) {
  return "FABENCH_CACHE_DIR" in env || "FABENCH_NO_CACHE" in env ? env : { ...env, FABENCH_NO_CACHE: "1" };
}
