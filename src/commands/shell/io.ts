import type { RunWriterFs } from "../../conditions/runner/index.ts";
/** Where a command's output goes; tests pass buffers, the binary passes the process streams. */
export interface CliIo {
  /** Results: human text, or the one JSON object of `--json`. */
  readonly out: (text: string) => void;
  /** Problems and progress. */
  readonly err: (text: string) => void;
  /** All of standard input, for commands that read `-`. */
  readonly readStdin?: () => Promise<Buffer>;
  /** Whether stderr is a terminal (a live progress bar) or not (a line every few seconds). */
  readonly isTty?: boolean;
  /**
   * The environment: API keys for model agents, FABENCH_DEBUG, PATH for subprocesses. The binary
   * passes `process.env`; tests pass their own, so no test mutates the process's environment.
   * Absent means an empty environment.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * The file operations `run` appends records with (node's when absent). Tests pass operations
   * that fail on cue, to show what a full disk does to a run.
   */
  readonly runWriterFs?: RunWriterFs;
  /** Registers a handler for Ctrl-C (the binary: SIGINT and SIGTERM); returns a function that removes it. */
  readonly onInterrupt?: (handler: () => void) => () => void;
  /**
   * Exits the process now with `code` (the binary: 143 instead of 130 when SIGTERM stopped it),
   * after killing every child's process group. A second interrupt calls it; tests leave it absent.
   */
  readonly exitNow?: (code: number) => void;
}

/** `interrupted`: stopped by Ctrl-C after what was in flight finished (143 when SIGTERM stopped it). */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  input: 2,
  blocked: 3,
  interrupted: 130,
  internal: 70,
} as const;

export function printJson(io: CliIo, value: unknown): void {
  io.out(`${JSON.stringify(value, null, 2)}\n`);
}
