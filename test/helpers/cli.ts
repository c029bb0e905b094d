/** Drives the CLI in-process (no spawn) and captures what it prints. */
import { main } from "../../src/cli.ts";

export interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

export async function runCli(argv: readonly string[]): Promise<CliRun> {
  let out = "";
  let err = "";
  const code = await main(argv, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}
