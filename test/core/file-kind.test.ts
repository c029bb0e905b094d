/**
 * `declaredFormat` reads a file's `format` from the whole file when it is one JSON value, else from
 * its first line — the same answer whichever it tries first.
 */
import { describe, expect, it } from "vitest";
import { declaredFormat } from "../../src/core/index.ts";

describe("declaredFormat", () => {
  it("reads a pretty-printed document whole, a JSON Lines file by its first line", () => {
    expect(declaredFormat('{\n  "format": "fabench-summary/v3",\n  "x": 1\n}\n')).toBe("fabench-summary/v3");
    const record = JSON.stringify({ metadata: { format: "fabench-run-record/v1" } });
    expect(declaredFormat(`${record}\n${record}\n`)).toBe("fabench-run-record/v1");
    expect(declaredFormat(`${record}\n`)).toBe("fabench-run-record/v1");
    expect(declaredFormat(`${record}\nnot json`)).toBe("fabench-run-record/v1");
    expect(declaredFormat(record)).toBe("fabench-run-record/v1");
  });

  it("says null for text that declares nothing", () => {
    expect(declaredFormat("")).toBeNull();
    expect(declaredFormat("not json\n{}")).toBeNull();
    expect(declaredFormat('{"a": 1}\n')).toBeNull();
    expect(declaredFormat("[1, 2]\n[3]")).toBeNull();
  });
});
