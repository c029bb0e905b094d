/** The episodes of a run still to do: run, one record appended per finished episode, until done or stopped. */
import {
  RunWriter,
  runMatrix,
  type MatrixInput,
  type MatrixResult,
  type RunRecord,
} from "../../conditions/runner/index.ts";
import type { CliIo } from "../shell/io.ts";
import { progressReporter } from "../shell/progress.ts";
import { stopOnInterrupt } from "../shell/resumable.ts";
import type { RunSettings } from "./options.ts";

type Matrix = Omit<MatrixInput, "maxErrors">;

/** Runs the pending episodes, one record appended per finished episode, until done or stopped. */
export async function runPending(
  { limits }: RunSettings,
  out: string,
  matrix: Matrix,
  io: CliIo,
): Promise<MatrixResult> {
  const signal = stopOnInterrupt(io, "episodes", true);
  const writer = new RunWriter(out, io.runWriterFs);
  const clock = () => performance.now();
  // A failed write (a full disk) stops the run like an interrupt: the episodes in flight finish,
  // nothing more is written, and the run ends with cannot_write (exit 2), resumable.
  const append = (record: RunRecord) => {
    try {
      writer.append(record);
    } catch {
      signal.stop();
    }
  };
  const result = await runMatrix(
    { ...matrix, maxErrors: limits.maxErrors ?? null, breaker: limits.breaker },
    {
      now: () => new Date(),
      clock,
      append,
      progress: progressReporter(io, `run ${out}`, clock),
      shouldStop: signal.shouldStop,
      signal: signal.signal,
      warn: (line) => io.err(`${line}\n`),
    },
  ).finally(() => {
    writer.close();
    signal.remove();
  });
  if (writer.failure !== null) {
    io.err(
      `${out}: the run stopped because a record could not be written; free space (or fix the cause), then continue with the same command and --resume\n`,
    );
    throw writer.failure;
  }
  return result;
}
