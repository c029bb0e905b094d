/**
 * One error type for the whole tool. Every problem has a code from a closed list per stage, a
 * message for people, and where it was found. Only the CLI turns these into text and exit codes.
 */

/** What kind of failure this is; the CLI maps it to an exit code (usage/input 2, validation 1, blocked 3). */
export type ErrorKind = "usage" | "input" | "validation" | "blocked" | "internal";

/** One problem found in an input: `file:line: code: message` when printed. */
export interface Problem {
  readonly code: string;
  readonly message: string;
  /** The file the problem is in, when there is one. */
  readonly file?: string;
  /** 1-based line in that file, when known. */
  readonly line?: number;
  /** Where in a JSON document (from a schema check); a reader that has the text turns it into `line`. */
  readonly jsonPath?: ReadonlyArray<string | number>;
}

export class FabenchError extends Error {
  readonly kind: ErrorKind;
  readonly stage: string;
  readonly code: string;
  /** Every problem found, for validators that report all of them at once. */
  readonly problems: readonly Problem[];

  constructor(options: {
    kind: ErrorKind;
    stage: string;
    code: string;
    message: string;
    problems?: readonly Problem[];
    file?: string;
    line?: number;
  }) {
    super(options.message);
    this.name = "FabenchError";
    this.kind = options.kind;
    this.stage = options.stage;
    this.code = options.code;
    const own: Problem = {
      code: options.code,
      message: options.message,
      ...(options.file === undefined ? {} : { file: options.file }),
      ...(options.line === undefined ? {} : { line: options.line }),
    };
    this.problems = options.problems && options.problems.length > 0 ? options.problems : [own];
  }
}

/** An input that cannot be read or parsed at all (exit 2). */
export function inputError(
  stage: string,
  code: string,
  message: string,
  where: { file?: string; line?: number; problems?: readonly Problem[] } = {},
): FabenchError {
  return new FabenchError({ kind: "input", stage, code, message, ...where });
}

/**
 * The code of work an interrupt stopped (an agent turn, a provider request, a wait for a batch):
 * the runner never records an episode that ended with it, so a plain `--resume` runs it again.
 */
export const INTERRUPTED = "interrupted";

/** The rejection of work an interrupt stopped; `message` says what was stopped. */
export function interruptedError(message: string): FabenchError {
  return new FabenchError({ kind: "input", stage: "agent", code: INTERRUPTED, message });
}

/** A command line that makes no sense (exit 2). */
export function usageError(code: string, message: string): FabenchError {
  return new FabenchError({ kind: "usage", stage: "cli", code, message });
}

/** `file:line: code: message`, or `file: code: message` when no line applies. */
export function formatProblem(problem: Problem): string {
  const where =
    problem.file === undefined
      ? ""
      : problem.line === undefined
        ? `${problem.file}: `
        : `${problem.file}:${problem.line}: `;
  return `${where}${problem.code}: ${problem.message}`;
}

/** What a parser or validator returns: the value, or every problem it found. */
export type Result<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly problems: Problem[] };
