/**
 * One error type for the whole tool. Every problem has a code from a closed list per stage, a
 * message for people, and where it was found. Only the CLI turns these into text and exit codes.
 */
export class FabenchError extends Error {
    kind;
    stage;
    code;
    /** Every problem found, for validators that report all of them at once. */
    problems;
    constructor(options) {
        super(options.message);
        this.name = "FabenchError";
        this.kind = options.kind;
        this.stage = options.stage;
        this.code = options.code;
        const own = {
            code: options.code,
            message: options.message,
            ...(options.file === undefined ? {} : { file: options.file }),
            ...(options.line === undefined ? {} : { line: options.line }),
        };
        this.problems = options.problems && options.problems.length > 0 ? options.problems : [own];
    }
}
/** An input that cannot be read or parsed at all (exit 2). */
export function inputError(stage, code, message, where = {}) {
    return new FabenchError({ kind: "input", stage, code, message, ...where });
}
/** A command line that makes no sense (exit 2). */
export function usageError(code, message) {
    return new FabenchError({ kind: "usage", stage: "cli", code, message });
}
/** `file:line: code: message`, or `file: code: message` when no line applies. */
export function formatProblem(problem) {
    const where = problem.file === undefined
        ? ""
        : problem.line === undefined
            ? `${problem.file}: `
            : `${problem.file}:${problem.line}: `;
    return `${where}${problem.code}: ${problem.message}`;
}
