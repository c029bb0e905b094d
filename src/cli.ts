/**
 * The command line: parses arguments, dispatches to one command function, and maps errors to
 * exit codes in one place (0 ok, 1 failed validation or check, 2 usage or unreadable input,
 * 3 blocked, 70 internal error). No logic lives here; the command groups live in src/cli/.
 */
import { Command, CommanderError, Help, type Option } from "commander";
import { registerCatalog } from "./cli/catalog.ts";
import { registerCompare } from "./cli/compare.ts";
import { registerConditions } from "./cli/conditions.ts";
import { registerConveyor } from "./cli/conveyor.ts";
import { registerCorpus } from "./cli/corpus.ts";
import { registerDiscoverCall } from "./cli/discover-call.ts";
import { registerEnvelope } from "./cli/envelope.ts";
import { registerExport } from "./cli/export.ts";
import { registerJudge } from "./cli/judge.ts";
import { registerPlan } from "./cli/plan.ts";
import { registerRun } from "./cli/run.ts";
import { registerScoring } from "./cli/scoring.ts";
import { registerServe } from "./cli/serve.ts";
import { registerSimulate } from "./cli/simulate.ts";
import { EXIT, type CliIo } from "./commands/shell/io.ts";
import { canonicalSha256, FabenchError, formatProblem, toolRoot, toolVersion } from "./core/index.ts";
import { problemLines, stopAllChildren } from "./core/index.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { registerDemo } from "./cli/demo.ts";
import { registerPilot } from "./cli/pilot.ts";
import { resolvePilot } from "./cli/options.ts";
import { resolveBundledDefaults } from "./cli/bundled-defaults.ts";
import { rememberKeyValues } from "./core/index.ts";

// Children run in their own process groups, out of reach of the terminal's Ctrl-C: whatever is
// still running when fabench exits, however it exits, dies with it.
process.on("exit", stopAllChildren);

export { DEFAULTS } from "./cli/options.ts";

const STOP_SIGNALS = ["SIGINT", "SIGTERM"] as const;
/** The signal that last asked the process's command to stop, if one did. */
let stopSignal: NodeJS.Signals | null = null;

const processIo: CliIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  },
  isTty: process.stderr.isTTY === true,
  env: process.env,
  // SIGTERM (what `kill`, systemd, Docker and CI runners send) stops a command as Ctrl-C does:
  // what is in flight finishes, the lock is released, and the exit code names the signal.
  onInterrupt: (handler) => {
    const on = (signal: NodeJS.Signals) => {
      stopSignal = signal;
      handler();
    };
    for (const signal of STOP_SIGNALS) process.on(signal, on);
    return () => {
      for (const signal of STOP_SIGNALS) process.off(signal, on);
    };
  },
  // A second interrupt: no child may outlive the process, and nothing waits for one.
  exitNow: (code) => {
    stopAllChildren();
    process.exit(signalExit(code, processIo));
  },
};

/**
 * A command stopped by an interrupt returns 130; the process exits 128 + the number of the signal
 * that stopped it, as a shell reports a process that signal ended: 130 for SIGINT, 143 for SIGTERM.
 */
function signalExit(code: number, io: CliIo): number {
  return code === EXIT.interrupted && io === processIo && stopSignal === "SIGTERM" ? 143 : code;
}

/**
 * A command that an interrupt stopped has returned, but something may still hold the process open
 * (a grandchild holding a pipe, a request being cancelled): another Ctrl-C then exits at once, its
 * children killed, instead of the default death that would leave them running. A signal listener
 * does not itself keep the process alive.
 */
function stopAtOnceAfterInterrupt(io: CliIo): void {
  if (io !== processIo || stopSignal === null) return;
  for (const signal of STOP_SIGNALS)
    process.once(signal, () => {
      stopSignal = signal;
      processIo.exitNow?.(EXIT.interrupted);
    });
}

/** `fabench 0.1.0 (protocol fabench-424-final-answer-v4 sha256 556d69b5…)`: what an issue report should quote. */
function versionLine(): string {
  const path = join(toolRoot(), "manifests/preregistration.json");
  try {
    const protocol = JSON.parse(readFileSync(path, "utf8")) as { protocol_id?: string };
    return `fabench ${toolVersion()} (protocol ${protocol.protocol_id ?? "?"} sha256 ${canonicalSha256(protocol)})`;
  } catch {
    return `fabench ${toolVersion()} (bundled protocol unreadable: ${path})`;
  }
}

/** The whole command tree, with nothing run; `main` parses with it (and tests walk it). */
export function buildProgram(io: CliIo, setExit: (code: number) => void): Command {
  const program = new Command("fabench")
    .description(
      "Final-answer quality under capability routing: plan, validate, run, score and gate the benchmark.",
    )
    .option("-V, --version", "output the version number and the bundled protocol's hash")
    .showHelpAfterError("(run with --help for usage)")
    // A mandatory option says so in --help, after its default and choices; subcommands inherit this.
    .configureHelp({
      optionDescription(this: Help, option: Option): string {
        const text = Help.prototype.optionDescription.call(this, option);
        return option.mandatory ? `${text} (required)` : text;
      },
    })
    .exitOverride()
    .configureOutput({
      writeOut: io.out,
      writeErr: io.err,
      outputError: (text, write) => write(text.replace(/^error: /, "fabench: usage_error: ")),
    });
  // Registration order is the order `fabench --help` lists the commands: the pipeline's order.
  // `demo` runs other commands through the same front door, each as its own command line.
  const registrar = { io, setExit, dispatch: (argv: readonly string[]) => main(argv, io) };
  for (const register of [
    registerPlan,
    registerCorpus,
    registerCatalog,
    registerEnvelope,
    registerConditions,
    registerRun,
    registerConveyor,
    registerPilot,
    registerJudge,
    registerScoring,
    registerCompare,
    registerExport,
    registerSimulate,
    registerDiscoverCall,
    registerServe,
    registerDemo,
  ])
    register(program, registrar);
  program.hook("preAction", (_program, action) => {
    resolvePilot(action);
    resolveBundledDefaults(action, io);
  });
  return program;
}

/** Runs the CLI on `argv` (without the node and script names) and returns the exit code. */
export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
    io.out(`${versionLine()}\n`);
    return EXIT.ok;
  }
  rememberKeyValues(io.env ?? {}); // what any quoted child output is redacted of
  let exitCode: number = EXIT.ok;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync([...argv], { from: "user" });
    stopAtOnceAfterInterrupt(io);
    return signalExit(exitCode, io);
  } catch (error) {
    return handleError(error, io);
  }
}

function handleError(error: unknown, io: CliIo): number {
  if (error instanceof CommanderError) {
    // Help and version are successful exits; everything else commander rejects is usage.
    return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  if (error instanceof FabenchError) {
    // At most 50 lines per input file, then one line counting the rest by code.
    for (const line of problemLines(error.problems, formatProblem)) io.err(`${line}\n`);
    const codes = {
      validation: EXIT.failed,
      blocked: EXIT.blocked,
      internal: EXIT.internal,
      usage: EXIT.usage,
      input: EXIT.input,
    } as const;
    return codes[error.kind];
  }
  const detail = error instanceof Error ? error.message : String(error);
  io.err(
    `fabench: internal_error: ${detail} (a bug in fabench; rerun with FABENCH_DEBUG=1 for a stack trace)\n`,
  );
  if (io.env?.["FABENCH_DEBUG"] && error instanceof Error) io.err(`${error.stack ?? ""}\n`);
  return EXIT.internal;
}
