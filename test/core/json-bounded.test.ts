import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  depthBreach,
  FabenchError,
  hasNonFiniteNumber,
  loneSurrogatePath,
  MAX_FILE_JSON_DEPTH,
  MAX_JSON_DEPTH,
  nestedDeeperThan,
  parseBoundedJson,
  parseJsonLines,
  parseJsonText,
} from "../../src/core/index.ts";

const nested = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;

function thrown(f: () => unknown): FabenchError {
  try {
    f();
  } catch (error) {
    if (error instanceof FabenchError) return error;
    throw error;
  }
  throw new Error("nothing thrown");
}

/** The character-by-character scan depthBreach replaced: the reference its quote-skipping must match. */
function depthBreachByChar(text: string, max: number): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length; i++) {
        if (text[i] === "\\") i++;
        else if (text[i] === '"') break;
      }
    } else if (c === "[" || c === "{") {
      if (++depth > max) return i;
    } else if (c === "]" || c === "}") depth--;
  }
  return -1;
}

describe("depthBreach", () => {
  it("finds what a character-by-character scan finds, escaped quotes and backslash runs included", () => {
    const piece = fc.constantFrom('"', "\\", "[", "]", "{", "}", "a", ",", ":", " ");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), fc.integer({ min: 0, max: 6 }), (parts, max) => {
        const text = parts.join("");
        expect(depthBreach(text, max)).toBe(depthBreachByChar(text, max));
      }),
      { numRuns: 3000, seed: 35 },
    );
  });

  it("accepts exactly the limit and names the offset of the first bracket past it", () => {
    expect(depthBreach(nested(64), 64)).toBe(-1);
    expect(depthBreach(nested(65), 64)).toBe(64);
    expect(depthBreach(`{"a": ${nested(70)}}`, 64)).toBe(6 + 63);
  });

  it("scans 100,000 levels without recursion, and skips brackets inside strings", () => {
    expect(depthBreach(nested(100_000), MAX_JSON_DEPTH)).toBe(MAX_JSON_DEPTH);
    expect(depthBreach(JSON.stringify({ s: "[".repeat(1000), t: 'a\\"[[[' }), 2)).toBe(-1);
  });
});

describe("parseBoundedJson", () => {
  it("never parses text nested deeper than the limit", () => {
    expect(parseBoundedJson(nested(100_000))).toEqual({ ok: false, reason: "too_deep", offset: 64 });
    expect(parseBoundedJson("{oops")).toEqual({ ok: false, reason: "invalid" });
    expect(parseBoundedJson('{"a":[1]}')).toEqual({ ok: true, value: { a: [1] } });
  });
});

describe("nestedDeeperThan, hasNonFiniteNumber, loneSurrogatePath", () => {
  it("walk 100,000 levels iteratively", () => {
    const deep = JSON.parse(nested(100_000)) as unknown;
    expect(nestedDeeperThan(deep, 64)).toBe(true);
    expect(nestedDeeperThan(JSON.parse(nested(64)), 64)).toBe(false);
    expect(hasNonFiniteNumber(deep)).toBe(false);
  });

  it("find 1e309 (which JSON.parse reads as Infinity) anywhere", () => {
    expect(hasNonFiniteNumber(JSON.parse('{"a":[1,{"b":1e309}]}'))).toBe(true);
    expect(hasNonFiniteNumber(JSON.parse('{"a":-1e309}'))).toBe(true);
    expect(hasNonFiniteNumber(JSON.parse('{"a":1e308}'))).toBe(false);
  });

  it("name the path of a lone surrogate", () => {
    expect(loneSurrogatePath(JSON.parse('{"q":["ok","a\\ud800"]}'))).toBe("$.q[1]");
    expect(loneSurrogatePath({ q: "😀" })).toBeNull();
  });
});

describe("files nested deeper than MAX_FILE_JSON_DEPTH", () => {
  it("are json_too_deep with their line, as JSON or as JSON Lines", () => {
    const text = `{\n  "a": 1,\n  "b": ${nested(100_000)}\n}\n`;
    const whole = thrown(() => parseJsonText(text, "deep.json", "corpus"));
    expect([whole.code, whole.kind, whole.problems[0]?.file, whole.problems[0]?.line]).toEqual([
      "json_too_deep",
      "input",
      "deep.json",
      3,
    ]);
    const lines = thrown(() =>
      parseJsonLines(`{"a":1}\n${nested(MAX_FILE_JSON_DEPTH + 1)}\n`, "r.jsonl", "run"),
    );
    expect([lines.code, lines.problems[0]?.line]).toEqual(["json_too_deep", 2]);
    // At the limit a file is read as before.
    expect(parseJsonText(nested(MAX_FILE_JSON_DEPTH), "ok.json", "corpus")).toBeDefined();
  });
});

describe("a run file with a line nested 100,000 deep", () => {
  it("is json_too_deep on that line, not a crash in the record schema", async () => {
    const { parseRunBytes } = await import("../../src/conditions/runner/run-file.ts");
    const text = `{"metadata":{"format":"fabench-run-record/v1"}}\n${nested(100_000)}\n`;
    const error = thrown(() => parseRunBytes(Buffer.from(text), "run.jsonl"));
    expect(error.problems.map((p) => [p.code, p.line])).toEqual([
      ["invalid_run_record", 1],
      ["json_too_deep", 2],
    ]);
  });
});
