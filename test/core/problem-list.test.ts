import { describe, expect, it } from "vitest";
import {
  capJsonProblems,
  formatCount,
  notOfKindMessage,
  type Problem,
  problemLines,
  restLine,
} from "../../src/core/index.ts";

/** `n` problems in file `file` (or none), lines 1..n, all with `code`. */
function many(n: number, code: string, file?: string, from = 1): Problem[] {
  return Array.from({ length: n }, (_, i) => ({
    code,
    message: `bad ${from + i}`,
    ...(file === undefined ? {} : { file, line: from + i }),
  }));
}

describe("formatCount", () => {
  it("groups digits by three", () => {
    expect([0, 7, 999, 1000, 10_000, 617_950, 1_234_567].map(formatCount)).toEqual([
      "0",
      "7",
      "999",
      "1,000",
      "10,000",
      "617,950",
      "1,234,567",
    ]);
  });
});

describe("problemLines", () => {
  it("lists a short list unchanged, one line per problem", () => {
    expect(
      problemLines([
        { code: "a", message: "first", file: "x.jsonl", line: 3 },
        { code: "b", message: "second", file: "x.jsonl" },
        { code: "c", message: "third" },
      ]),
    ).toEqual(["x.jsonl:3: a: first", "x.jsonl: b: second", "c: third"]);
  });

  it("prints exactly 50 problems of a file without a summary line", () => {
    const lines = problemLines(many(50, "invalid_run_record", "r.jsonl"));
    expect(lines).toHaveLength(50);
    expect(lines.at(-1)).toBe("r.jsonl:50: invalid_run_record: bad 50");
  });

  it("stops a file at 50 lines and counts the rest in one line", () => {
    const lines = problemLines(many(618_000, "invalid_run_record", "garbage.jsonl"));
    expect(lines).toHaveLength(51);
    expect(lines[0]).toBe("garbage.jsonl:1: invalid_run_record: bad 1");
    expect(lines[49]).toBe("garbage.jsonl:50: invalid_run_record: bad 50");
    expect(lines[50]).toBe("… and 617,950 more: invalid_run_record ×617,950");
  });

  it("groups by file in order of first appearance, problems without a file as their own group", () => {
    const problems: Problem[] = [
      ...many(2, "x_code", "a.jsonl"),
      { code: "loose", message: "no file 1" },
      ...many(52, "y_code", "b.jsonl"),
      ...many(60, "x_code", "a.jsonl", 3),
      { code: "loose", message: "no file 2" },
    ];
    // a.jsonl: 62 problems (lines 1..62), 50 shown, 12 counted.
    const lines = problemLines(problems);
    expect(lines.slice(0, 2)).toEqual(["a.jsonl:1: x_code: bad 1", "a.jsonl:2: x_code: bad 2"]);
    expect(lines[49]).toBe("a.jsonl:50: x_code: bad 50");
    expect(lines[50]).toBe("… and 12 more: x_code ×12");
    expect(lines.slice(51, 53)).toEqual(["loose: no file 1", "loose: no file 2"]);
    expect(lines[53]).toBe("b.jsonl:1: y_code: bad 1");
    expect(lines[102]).toBe("b.jsonl:50: y_code: bad 50");
    expect(lines[103]).toBe("… and 2 more: y_code ×2");
    expect(lines).toHaveLength(104);
  });

  it("orders the summary's codes by count, then by name", () => {
    const problems: Problem[] = [
      ...many(50, "first_fifty", "f.json"),
      ...many(2, "beta", "f.json"),
      ...many(1_500, "zeta", "f.json"),
      ...many(2, "alpha", "f.json"),
      ...many(1, "gamma", "f.json"),
    ];
    expect(problemLines(problems).at(-1)).toBe("… and 1,505 more: zeta ×1,500, alpha ×2, beta ×2, gamma ×1");
  });

  it("caps problems without a file the same way", () => {
    const lines = problemLines(many(75, "missing_episode"));
    expect(lines).toHaveLength(51);
    expect(lines[50]).toBe("… and 25 more: missing_episode ×25");
  });

  it("uses the formatter it is given, and a smaller cap", () => {
    const lines = problemLines(many(5, "c", "f"), (p) => `<${p.message}>`, 2);
    expect(lines).toEqual(["<bad 1>", "<bad 2>", "… and 3 more: c ×3"]);
  });

  it("prints nothing for no problems", () => {
    expect(problemLines([])).toEqual([]);
    expect(restLine(many(1, "only"))).toBe("… and 1 more: only ×1");
  });
});

describe("capJsonProblems", () => {
  it("keeps a list of up to 10,000 whole and says nothing", () => {
    const list = Array.from({ length: 10_000 }, (_, i) => i);
    const capped = capJsonProblems(list);
    expect(capped.kept).toHaveLength(10_000);
    expect(capped.truncation).toBeNull();
  });

  it("keeps the first 10,000 of a longer list and says how many there were", () => {
    const list = Array.from({ length: 10_345 }, (_, i) => i);
    const capped = capJsonProblems(list);
    expect(capped.kept).toHaveLength(10_000);
    expect(capped.kept[0]).toBe(0);
    expect(capped.kept.at(-1)).toBe(9_999);
    expect(capped.truncation).toEqual({ truncated: true, total: 10_345 });
  });

  it("takes a smaller limit", () => {
    expect(capJsonProblems(["a", "b", "c"], 2)).toEqual({
      kept: ["a", "b"],
      truncation: { truncated: true, total: 3 },
    });
  });
});

describe("notOfKindMessage", () => {
  it("says how many lines were read", () => {
    expect(notOfKindMessage("run", "run record", 1_000)).toBe(
      "not a fabench run file: none of its first 1,000 lines is a run record",
    );
    expect(notOfKindMessage("corpus", "corpus row", 3)).toBe(
      "not a fabench corpus file: none of its 3 lines is a corpus row",
    );
    expect(notOfKindMessage("run", "run record", 1)).toBe(
      "not a fabench run file: its only line is not a run record",
    );
  });
});
