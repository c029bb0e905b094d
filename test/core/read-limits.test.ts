import { existsSync, mkdirSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_READ_LIMIT, FabenchError, READ_LIMITS, readBytes } from "../../src/core/index.ts";
import { join, useTempDir } from "../helpers/temp.ts";

/** The one problem `readBytes` refuses with: [code, message]. */
function refusal(path: string, stage: string): [string, string] {
  try {
    readBytes(path, stage);
  } catch (error) {
    expect(error).toBeInstanceOf(FabenchError);
    const problem = (error as FabenchError).problems[0];
    return [problem?.code ?? "", problem?.message ?? ""];
  }
  throw new Error("expected a refusal");
}

describe("reading an input never exhausts memory", () => {
  const temp = useTempDir();

  it.skipIf(!existsSync("/dev/zero"))("refuses a device and a symlink to one without reading it", () => {
    const link = join(temp(), "evidence.json");
    symlinkSync("/dev/zero", link);
    for (const path of ["/dev/zero", link])
      expect(refusal(path, "envelope")).toEqual([
        "not_a_regular_file",
        "is not a regular file (a device, pipe or socket); give a file",
      ]);
  });

  it("refuses a file larger than its kind may be, by its size, before reading it", () => {
    // A sparse file: its size is over the limit, its blocks are not; reading it would allocate them.
    const big = join(temp(), "protocol.json");
    writeFileSync(big, "");
    truncateSync(big, DEFAULT_READ_LIMIT + 1);
    expect(refusal(big, "protocol")).toEqual([
      "file_too_large",
      "is 67,108,865 bytes, more than the 64 MiB a protocol file may be",
    ]);
    const envelope = join(temp(), "answer.txt");
    writeFileSync(envelope, "");
    truncateSync(envelope, (READ_LIMITS["envelope"] as number) + 1);
    expect(refusal(envelope, "envelope")[0]).toBe("file_too_large");
    // The same size is fine for a run file, whose limit is larger.
    expect(readBytes(big, "run").length).toBe(DEFAULT_READ_LIMIT + 1);
  });

  it("names a folder, a missing file and an empty path as what they are", () => {
    mkdirSync(join(temp(), "d"));
    expect(refusal(join(temp(), "d"), "summary")).toEqual(["unreadable_file", "is a folder, not a file"]);
    expect(refusal(join(temp(), "missing"), "summary")).toEqual(["unreadable_file", "no such file"]);
    expect(refusal("", "summary")).toEqual([
      "empty_path",
      "an empty path was given where a file was expected",
    ]);
  });
});
