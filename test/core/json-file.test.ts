import { describe, expect, it } from "vitest";
import {
  arrayElementStarts,
  decodeUtf8,
  FabenchError,
  jsonPathLines,
  locateJsonError,
  parseJsonLines,
  parseJsonText,
  withJsonLines,
} from "../../src/core/index.ts";

function problemOf(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(FabenchError);
    return (error as FabenchError).problems;
  }
  throw new Error("expected a FabenchError");
}

describe("decodeUtf8", () => {
  it("names the line of the first invalid byte", () => {
    const bytes = Buffer.concat([
      Buffer.from('{"a":1}\n{"b":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}\n'),
    ]);
    const [problem] = problemOf(() => decodeUtf8(bytes, "c.jsonl", "corpus"));
    expect(problem).toMatchObject({ code: "invalid_utf8", file: "c.jsonl", line: 2 });
  });

  it("rejects overlong encodings and encoded surrogates", () => {
    for (const bad of [
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xf5, 0x80, 0x80, 0x80],
    ])
      expect(problemOf(() => decodeUtf8(Buffer.from(bad), "f", "s"))[0]?.code).toBe("invalid_utf8");
  });

  it("drops a byte-order mark", () => {
    expect(decodeUtf8(Buffer.from("\ufeff[1]"), "f", "s")).toBe("[1]");
  });
});

describe("parseJsonText", () => {
  it("reports an empty file as empty, not as bad JSON", () => {
    expect(problemOf(() => parseJsonText(" \n", "e.json", "s"))[0]?.code).toBe("empty_file");
  });

  it("names the line and column of a syntax error", () => {
    const [problem] = problemOf(() => parseJsonText('[\n  {"a": 1},\n  {"b" 2}\n]', "x.json", "s"));
    expect(problem).toMatchObject({ code: "invalid_json", line: 3 });
    expect(problem?.message).toContain("expected ':'");
    expect(problem?.message).toContain("column 8");
  });

  it("never quotes the input back in its message", () => {
    const garbage = "x".repeat(5000);
    const [problem] = problemOf(() => parseJsonText(garbage, "g.json", "s"));
    expect(problem?.message.length).toBeLessThan(120);
  });
});

describe("parseJsonLines", () => {
  it("reports every bad line and says when the last one is truncated", () => {
    const problems = problemOf(() => parseJsonLines('{"a":1}\nnot json\n{"b":2}\n{"c":', "r.jsonl", "s"));
    expect(problems.map((p) => p.line)).toEqual([2, 4]);
    expect(problems[1]?.message).toContain("truncated");
  });

  it("skips blank lines and keeps line numbers", () => {
    const rows = parseJsonLines('\n{"a":1}\r\n\n{"b":2}\n', "r.jsonl", "s");
    expect(rows.map((r) => r.line)).toEqual([2, 4]);
  });
});

describe("locateJsonError", () => {
  it.each([
    ["[1,2", 4, "unexpected end of input"],
    ['{"a":1,}', 7, "expected a double-quoted property name"],
    ["[1] x", 4, "after the JSON value"],
    ['"abc', 0, "unterminated string"],
    ['{"a":tru}', 5, "unexpected 't'"],
    ["[01]", 2, "expected ',' or ']'"],
    ['["\\x"]', 2, "invalid escape"],
    ["[NaN]", 1, "unexpected 'N'"],
  ])("finds the error in %j at offset %i", (text, offset, reason) => {
    const found = locateJsonError(text);
    expect(found?.offset).toBe(offset);
    expect(found?.reason).toContain(reason);
  });

  it("accepts valid JSON and deep nesting without overflowing", () => {
    expect(locateJsonError('{"a":[1,-2.5e3,true,null,"\\u00e9"]}')).toBeNull();
    expect(locateJsonError("[".repeat(200_000))?.reason).toBe("unexpected end of input");
  });
});

describe("arrayElementStarts", () => {
  it("finds each element of a root array or of a named member", () => {
    const text = '[\n {"q":"a,]}"},\n [1,[2]],\n 3\n]';
    const starts = arrayElementStarts(text, null);
    expect(starts.map((s) => text[s])).toEqual(["{", "[", "3"]);
    const wrapped = '{"meta":{"tasks":[9]},"tasks":[ {"x":1} , {"y":2} ]}';
    expect(arrayElementStarts(wrapped, "tasks").map((s) => wrapped.slice(s, s + 5))).toEqual([
      '{"x":',
      '{"y":',
    ]);
  });
});

describe("jsonPathLines", () => {
  const text = [
    "{",
    '  "design": {"seed": 1,',
    '    "cells": 36},',
    '  "results": [',
    '    {"name": "a", "m": {"x": [1,',
    "      2]}},",
    '    {"name": "b \\"]}{", "m": {}}',
    "  ]",
    "}",
  ].join("\n");

  it("gives the line where each path's value starts", () => {
    expect(JSON.parse(text)).toBeTruthy();
    expect(
      jsonPathLines(text, [
        [],
        ["design"],
        ["design", "cells"],
        ["results", 0, "m", "x", 1],
        ["results", 1, "name"],
        ["results", 1, "m"],
      ]),
    ).toEqual([1, 2, 3, 6, 7, 7]);
  });

  it("falls back to the deepest existing ancestor of a missing path", () => {
    expect(
      jsonPathLines(text, [
        ["design", "missing"],
        ["results", 5, "name"],
        ["nothing", "at", "all"],
      ]),
    ).toEqual([2, 4, 1]);
  });

  it("turns schema problems' JSON paths into lines", () => {
    const problems = withJsonLines(
      [
        { code: "c", message: "m", jsonPath: ["results", 1, "m"] },
        { code: "d", message: "n", line: 9, jsonPath: [] },
        { code: "e", message: "o" },
      ],
      text,
    );
    expect(problems.map((p) => p.line)).toEqual([7, 9, undefined]);
  });
});
