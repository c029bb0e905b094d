import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  endOfRun,
  refuseExistingOutput,
  stopOnInterrupt,
  stoppedExit,
  withOutputLock,
  type RunEnd,
} from "../../src/commands/shell/resumable.ts";
import type { CliIo } from "../../src/commands/shell/io.ts";
import { FabenchError } from "../../src/core/index.ts";
import { useTempDir } from "../helpers/temp.ts";

const temp = useTempDir();

/** A console that keeps what was written, and the interrupt handler a command registered. */
function fakeIo() {
  const seen = { err: "", handler: null as (() => void) | null, removed: 0 };
  const io: CliIo = {
    out: () => undefined,
    err: (t) => void (seen.err += t),
    onInterrupt: (handler) => {
      seen.handler = handler;
      return () => void (seen.removed += 1);
    },
  };
  return { io, seen };
}

const WORDS = { breaker: 5, allFailed: "ALL FAILED", retryHint: " (add --retry-errors)" };
const end = (over: Partial<RunEnd>): RunEnd => ({
  stopped: false,
  stopReason: null,
  tripped: null,
  attempts: 4,
  errors: 0,
  ...over,
});

describe("the end of a resumable run", () => {
  it("exits 0 and says nothing when the run finished with something measured", () => {
    const { io, seen } = fakeIo();
    expect(endOfRun(io, end({ errors: 3 }), WORDS)).toBe(0);
    expect(seen.err).toBe("");
  });

  it("exits 1 with its line when every attempt of a finished run failed", () => {
    const { io, seen } = fakeIo();
    expect(endOfRun(io, end({ errors: 4 }), WORDS)).toBe(1);
    expect(seen.err).toBe("ALL FAILED\n");
  });

  it("exits 130 after an interrupt and says how to continue", () => {
    const { io, seen } = fakeIo();
    expect(endOfRun(io, end({ stopped: true, stopReason: "interrupted", errors: 4 }), WORDS)).toBe(130);
    // A stopped run is never "all failed": it is continued, not rerun.
    expect(seen.err).toBe("interrupted; continue with the same command and --resume (add --retry-errors)\n");
  });

  it("exits 1 for the error limit and the budget, adding the retry hint only when errors were recorded", () => {
    const a = fakeIo();
    expect(endOfRun(a.io, end({ stopped: true, stopReason: "max_errors", errors: 3 }), WORDS)).toBe(1);
    expect(a.seen.err).toBe(
      "stopped after 3 infrastructure errors (--max-errors); continue with the same command and --resume (add --retry-errors)\n",
    );
    const b = fakeIo();
    expect(endOfRun(b.io, end({ stopped: true, stopReason: "budget_exhausted" }), WORDS)).toBe(1);
    expect(b.seen.err).toBe(
      "stopped before a request that could exceed --budget-usd; continue with the same command and --resume\n",
    );
  });

  it("names the breaker's code and limit when the breaker tripped", () => {
    const { io, seen } = fakeIo();
    const tripped = { code: "provider_server_error", count: 5 };
    expect(endOfRun(io, end({ stopped: true, stopReason: "breaker", tripped, errors: 5 }), WORDS)).toBe(1);
    expect(seen.err).toBe(
      "stopped after 5 infrastructure errors in a row, all provider_server_error (the circuit breaker, --breaker 5; 0 turns it off); fix the cause, then continue with the same command and --resume --retry-errors\n",
    );
  });

  it("lets a command say its own reason and next step (discover-call's shape)", () => {
    const { io, seen } = fakeIo();
    const code = stoppedExit(io, {
      why: "stopped: the API is down; 7 trial(s) left",
      next: "once the API answers again, continue with the same command and --resume",
      interrupted: false,
    });
    expect(code).toBe(1);
    expect(seen.err).toBe(
      "stopped: the API is down; 7 trial(s) left; once the API answers again, continue with the same command and --resume\n",
    );
  });
});

describe("stopping on an interrupt", () => {
  it("asks the stage to stop once Ctrl-C arrives, says so, and removes its handler", () => {
    const { io, seen } = fakeIo();
    const signal = stopOnInterrupt(io, "episodes");
    expect(signal.shouldStop()).toBe(false);
    seen.handler?.();
    expect(signal.shouldStop()).toBe(true);
    expect(seen.err).toBe("\ninterrupt: finishing the episodes in flight, then stopping\n");
    signal.remove();
    expect(seen.removed).toBe(1);
  });

  it("aborts its signal on the first interrupt, never on the command's own stop", () => {
    const { io, seen } = fakeIo();
    const own = stopOnInterrupt(io, "requests");
    own.stop();
    expect(own.signal.aborted).toBe(false);
    const signal = stopOnInterrupt(io, "episodes", true);
    seen.handler?.();
    expect(signal.signal.aborted).toBe(true);
    expect(seen.err).toContain("episodes still running are stopped and left for --resume");
  });

  it("exits at once on a second interrupt, releasing the output lock it holds first", async () => {
    const exits: number[] = [];
    const { io, seen } = fakeIo();
    const out = join(temp(), "run.jsonl");
    const lockHeld: boolean[] = [];
    const exiting: CliIo = { ...io, exitNow: (code) => void exits.push(code) };
    await withOutputLock(out, "fabench run", exiting, async () => {
      stopOnInterrupt(exiting, "episodes", true);
      seen.handler?.();
      expect(exits).toEqual([]);
      lockHeld.push(existsSync(`${out}.lock`));
      seen.handler?.();
      lockHeld.push(existsSync(`${out}.lock`));
    });
    expect(exits).toEqual([130]);
    expect(lockHeld).toEqual([true, false]);
    expect(seen.err).toContain("second interrupt: stopping now; continue with the same command and --resume");
  });

  it("stops without the interrupt's message when the command stops it (a failed write)", () => {
    const { io, seen } = fakeIo();
    const signal = stopOnInterrupt(io, "requests");
    signal.stop();
    expect([signal.shouldStop(), seen.err]).toEqual([true, ""]);
  });
});

describe("the output of a resumable run", () => {
  it("refuses an existing output without --resume, naming the command's flag", () => {
    const out = join(temp(), "run.jsonl");
    refuseExistingOutput(out, false);
    writeFileSync(out, "");
    refuseExistingOutput(out, true);
    let error: unknown;
    try {
      refuseExistingOutput(out, false, "--output");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FabenchError);
    expect((error as FabenchError).code).toBe("output_exists");
    expect((error as FabenchError).message).toBe(
      `${out} exists; add --resume to continue it, or choose a new --output`,
    );
  });

  it("makes the folder, holds the lock while the body runs, refuses a second writer, and releases it when the body throws", async () => {
    const out = join(temp(), "runs", "new", "run.jsonl");
    const { io } = fakeIo();
    let during: { locked: boolean; second: string | null } | null = null;
    await expect(
      withOutputLock(out, "fabench run", io, async () => {
        let second: string | null = null;
        try {
          await withOutputLock(out, "fabench judge run", io, async () => undefined);
        } catch (e) {
          second = (e as FabenchError).code;
        }
        during = { locked: existsSync(`${out}.lock`), second };
        throw new Error("the body failed");
      }),
    ).rejects.toThrow("the body failed");
    expect(during).toEqual({ locked: true, second: "run_file_locked" });
    expect(existsSync(`${out}.lock`)).toBe(false);
  });
});
