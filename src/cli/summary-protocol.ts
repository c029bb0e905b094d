/**
 * `gate` and `report` take the protocol a summary names (#35): a summary scored under a pilot
 * records its protocol file (`protocol_file`, relative to the summary's folder), so
 * `gate results/x.summary.json` needs no `--pilot` again. The file is used only when its content
 * still hashes to the summary's `protocol_sha256`; otherwise the command goes on with its default
 * and refuses the mismatch as before. `--protocol` or `--pilot` given by the user always wins.
 * Light on purpose: it reads the summary's first bytes, not the whole file (which may be large).
 */
import { closeSync, existsSync, openSync, readFileSync, readSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import type { Command } from "commander";
import { PILOT_FILES } from "../authoring/pilot-files.ts";
import { canonicalSha256 } from "../core/index.ts";
import { applyPilot } from "./options.ts";

/** The head of a summary: its top-level fields before `run` fit in far less. */
const HEAD_BYTES = 4096;

/** What a summary's head says of its protocol, or null when it names no protocol file. */
export function summaryProtocolHead(head: string): { file: string; sha256: string } | null {
  const file = /^ {2}"protocol_file": ("(?:[^"\\]|\\.)*"),?$/m.exec(head)?.[1];
  const sha256 = /^ {2}"protocol_sha256": "([0-9a-f]{64})",?$/m.exec(head)?.[1];
  if (file === undefined || sha256 === undefined) return null;
  try {
    const path: unknown = JSON.parse(file);
    return typeof path === "string" && path !== "" ? { file: path, sha256 } : null;
  } catch {
    return null;
  }
}

/** Before `gate`/`report` run: the protocol (and, for a pilot's, the pilot's other files) the summary names. */
export function useSummaryProtocol(command: Command, summaryPath: string | undefined): void {
  if (summaryPath === undefined) return;
  if (command.getOptionValueSource("protocol") === "cli" || command.getOptionValue("pilot") !== undefined)
    return;
  const named = summaryProtocolHead(readHead(summaryPath));
  if (named === null) return;
  const path = resolve(dirname(summaryPath), named.file);
  if (protocolSha256(path) !== named.sha256) return;
  const dir = dirname(path);
  if (basename(path) === PILOT_FILES.protocol && existsSync(resolve(dir, PILOT_FILES.marker)))
    applyPilot(command, dir);
  else command.setOptionValue("protocol", path);
}

function readHead(path: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const buffer = Buffer.alloc(HEAD_BYTES);
    return buffer.subarray(0, readSync(fd, buffer, 0, HEAD_BYTES, 0)).toString("utf8");
  } catch {
    return ""; // the command itself reports an unreadable summary
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function protocolSha256(path: string): string | null {
  try {
    return canonicalSha256(JSON.parse(readFileSync(path, "utf8")));
  } catch {
    return null;
  }
}
