/**
 * Loaded into a child `fabench` with `node --import`, for a kill -9 at an exact point rather than
 * after a guessed delay. Once the file FABENCH_TEST_KILL_FILE has received FABENCH_TEST_KILL_AFTER
 * whole lines, the next write to it puts down only its first FABENCH_TEST_KILL_TEAR bytes (0:
 * none) and the process sends itself SIGKILL. It patches node:fs in that child process only.
 */
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { resolve } from "node:path";

const target = resolve(process.env["FABENCH_TEST_KILL_FILE"] ?? "");
const after = Number(process.env["FABENCH_TEST_KILL_AFTER"]);
const tear = Number(process.env["FABENCH_TEST_KILL_TEAR"] ?? "0");
if (!process.env["FABENCH_TEST_KILL_FILE"] || !Number.isInteger(after) || !Number.isInteger(tear))
  throw new Error(
    "kill-at-line: set FABENCH_TEST_KILL_FILE, FABENCH_TEST_KILL_AFTER and FABENCH_TEST_KILL_TEAR",
  );

const { openSync, writeSync } = fs;
const watched = new Set();
let lines = 0;

fs.openSync = function (path, ...rest) {
  const fd = openSync.call(this, path, ...rest);
  if (typeof path === "string" && resolve(path) === target) watched.add(fd);
  return fd;
};

fs.writeSync = function (fd, data, ...rest) {
  if (!watched.has(fd)) return writeSync.call(this, fd, data, ...rest);
  const bytes =
    typeof data === "string"
      ? Buffer.from(data, "utf8")
      : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const offset = typeof data !== "string" && typeof rest[0] === "number" ? rest[0] : 0;
  if (lines >= after) {
    if (tear > 0) writeSync.call(this, fd, bytes.subarray(offset, offset + tear));
    process.kill(process.pid, "SIGKILL");
  }
  const written = writeSync.call(this, fd, data, ...rest);
  for (const byte of bytes.subarray(offset, offset + written)) if (byte === 0x0a) lines += 1;
  return written;
};

syncBuiltinESMExports();
