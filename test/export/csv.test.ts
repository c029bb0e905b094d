/** The CSV export: RFC 4180 quoting, read back by an independent parser written here. */
import { describe, expect, it } from "vitest";
import { csvField, episodesCsv } from "../../src/export/index.ts";
import { makeRecord, makeSummary } from "./fixtures.ts";

/** RFC 4180, read character by character: quoted fields may hold commas, quotes ("") and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += c;
  }
  if (field !== "" || row.length > 0) throw new Error("the last line has no CRLF");
  return rows;
}

describe("episodesCsv", () => {
  const hostile = 'bad, "quoted"\r\nand a newline';
  const records = [makeRecord(), makeRecord({ trial: 2, status: "error", error_code: hostile })];
  const summary = makeSummary(records);
  const rows = parseCsv(episodesCsv(summary, records));

  it("writes a header row and one row per episode, every row as wide as the header", () => {
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.length === rows[0]?.length)).toBe(true);
    expect(rows[0]?.slice(0, 10)).toEqual([
      "semantic_task_id",
      "answer_task_stratum",
      "language",
      "catalog_size",
      "condition",
      "trial",
      "status",
      "error_code",
      "end_reason",
      "malformed_reason",
    ]);
    expect(rows[0]).toEqual(
      expect.arrayContaining(["required_fact_recall", "tool_calls", "agent", "model", "router_id"]),
    );
  });

  it("reads back every value, the hostile one intact; null is an empty field", () => {
    const header = rows[0] ?? [];
    const cell = (row: number, column: string) => rows[row]?.[header.indexOf(column)];
    expect(cell(1, "semantic_task_id")).toBe("t-1");
    expect(cell(1, "catalog_size")).toBe("100");
    expect(cell(1, "end_reason")).toBe("final_answer");
    expect(cell(1, "required_fact_recall")).toBe("0.5");
    expect(cell(1, "recovered")).toBe("");
    expect(cell(1, "error_code")).toBe("");
    expect(cell(1, "agent")).toBe("reference");
    expect(cell(1, "router_id")).toBe("word-overlap");
    expect(cell(2, "trial")).toBe("2");
    expect(cell(2, "status")).toBe("error");
    expect(cell(2, "error_code")).toBe(hostile);
  });

  it("quotes only what needs it", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField('a "b"')).toBe('"a ""b"""');
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField(null)).toBe("");
    expect(csvField(0.25)).toBe("0.25");
  });
});
