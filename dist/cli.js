/**
 * The command line: parses arguments, dispatches to one command function, and maps errors to
 * exit codes in one place (0 ok, 1 failed validation or check, 2 usage or unreadable input,
 * 3 blocked, 70 internal error). No logic lives here; the command groups live in src/cli/.
 */
import { Command, CommanderError } from "commander";
import { registerCatalog } from "./cli/catalog.js";
import { registerConditions } from "./cli/conditions.js";
import { registerConveyor } from "./cli/conveyor.js";
import { registerCorpus } from "./cli/corpus.js";
import { registerEnvelope } from "./cli/envelope.js";
import { registerPlan } from "./cli/plan.js";
import { registerRun } from "./cli/run.js";
import { registerScoring } from "./cli/scoring.js";
import { registerSimulate } from "./cli/simulate.js";
import { EXIT } from "./commands/io.js";
import { FabenchError, formatProblem } from "./core/index.js";
export { DEFAULTS } from "./cli/options.js";
const processIo = {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    readStdin: async () => {
        const chunks = [];
        for await (const chunk of process.stdin)
            chunks.push(chunk);
        return Buffer.concat(chunks);
    },
    isTty: process.stderr.isTTY === true,
    env: process.env,
    onInterrupt: (handler) => {
        process.on("SIGINT", handler);
        return () => void process.off("SIGINT", handler);
    },
};
function buildProgram(io, setExit) {
    const program = new Command("fabench")
        .description("Final-answer quality under capability routing: plan, validate, run, score and gate the benchmark.")
        .version("0.1.0")
        .showHelpAfterError("(run with --help for usage)")
        .exitOverride()
        .configureOutput({
        writeOut: io.out,
        writeErr: io.err,
        outputError: (text, write) => write(text.replace(/^error: /, "fabench: usage_error: ")),
    });
    // Registration order is the order `fabench --help` lists the commands: the pipeline's order.
    const registrar = { io, setExit };
    for (const register of [
        registerPlan,
        registerCorpus,
        registerCatalog,
        registerEnvelope,
        registerConditions,
        registerRun,
        registerConveyor,
        registerScoring,
        registerSimulate,
    ])
        register(program, registrar);
    return program;
}
/** Runs the CLI on `argv` (without the node and script names) and returns the exit code. */
export async function main(argv, io = processIo) {
    let exitCode = EXIT.ok;
    const program = buildProgram(io, (code) => {
        exitCode = code;
    });
    try {
        await program.parseAsync([...argv], { from: "user" });
        return exitCode;
    }
    catch (error) {
        return handleError(error, io);
    }
}
function handleError(error, io) {
    if (error instanceof CommanderError) {
        // Help and version are successful exits; everything else commander rejects is usage.
        return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof FabenchError) {
        for (const problem of error.problems)
            io.err(`${formatProblem(problem)}\n`);
        const codes = {
            validation: EXIT.failed,
            blocked: EXIT.blocked,
            internal: EXIT.internal,
            usage: EXIT.usage,
            input: EXIT.input,
        };
        return codes[error.kind];
    }
    const detail = error instanceof Error ? error.message : String(error);
    io.err(`fabench: internal_error: ${detail} (a bug in fabench; rerun with FABENCH_DEBUG=1 for a stack trace)\n`);
    if (io.env?.["FABENCH_DEBUG"] && error instanceof Error)
        io.err(`${error.stack ?? ""}\n`);
    return EXIT.internal;
}
