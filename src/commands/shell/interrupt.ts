/**
 * Ctrl-C and SIGTERM around a resumable stage: before its first unit of work (exit at once), while
 * it runs (start nothing new, stop or finish what is in flight), and the second interrupt (exit
 * now, children killed, locks released). The output locks this process holds live here, so the
 * second interrupt can release them before it exits.
 */
import { setMaxListeners } from "node:events";
import type { WriteLock } from "../../core/index.ts";
import { EXIT, type CliIo } from "./io.ts";

/** The output locks this process holds, released by a second interrupt before it exits at once. */
export const heldLocks = new Set<WriteLock>();

function releaseHeldLocks(): void {
  for (const lock of heldLocks) lock.release();
  heldLocks.clear();
}

export interface StopSignal {
  /** Whether the stage should start nothing new (read between episodes, requests or trials). */
  readonly shouldStop: () => boolean;
  /** Aborted by the first interrupt (not by `stop`): what listens stops the work in flight. */
  readonly signal: AbortSignal;
  /** Stops the run as an interrupt does, without its message (a record that could not be written). */
  readonly stop: () => void;
  /** Removes the interrupt handler (the run is over). */
  readonly remove: () => void;
}

/**
 * Ctrl-C (and SIGTERM) stops the stage: nothing new starts, and the first interrupt aborts
 * `signal`, which a stage that passes it on uses to stop its work in flight (`abortsInFlight`:
 * `run` gives up its turns in flight; the others finish what is in flight). A second interrupt
 * exits at once: every child's process group is killed, the output locks this process holds are
 * released (so the next `--resume` finds none), and the process exits 130 (143 for SIGTERM).
 * Nothing is half-written: records are appended by synchronous writes, between which it runs.
 */
export function stopOnInterrupt(io: CliIo, inFlight: string, abortsInFlight = false): StopSignal {
  let stopping = false;
  let interrupts = 0;
  const controller = new AbortController();
  // Every turn in flight listens (the runner, a child, a provider request) and stops listening when
  // it ends: at --concurrency 8 that is more than the default 10 listeners, and no leak.
  setMaxListeners(0, controller.signal);
  const removeHandler = io.onInterrupt?.(() => {
    interrupts += 1;
    stopping = true;
    if (interrupts > 1) {
      io.err("\nsecond interrupt: stopping now; continue with the same command and --resume\n");
      releaseHeldLocks();
      io.exitNow?.(EXIT.interrupted);
      return;
    }
    io.err(
      abortsInFlight
        ? `\ninterrupt: stopping; ${inFlight} still running are stopped and left for --resume (interrupt again to exit at once)\n`
        : `\ninterrupt: finishing the ${inFlight} in flight, then stopping\n`,
    );
    controller.abort();
  });
  return {
    shouldStop: () => stopping,
    signal: controller.signal,
    stop: () => {
      stopping = true;
    },
    remove: () => removeHandler?.(),
  };
}

/**
 * Before a stage's first unit of work starts there is nothing in flight to finish: an interrupt
 * then exits at once (130, 143 for SIGTERM) with the resume line, any lock released. `remove`
 * (safe to call twice) hands interrupts over to the stage's own handler.
 */
export function exitOnInterrupt(io: CliIo, when: string): { readonly remove: () => void } {
  let remove = io.onInterrupt?.(() => {
    io.err(`\ninterrupted ${when}; continue with the same command and --resume\n`);
    releaseHeldLocks();
    io.exitNow?.(EXIT.interrupted);
  });
  return {
    remove: () => {
      remove?.();
      remove = undefined;
    },
  };
}
