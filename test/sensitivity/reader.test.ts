/**
 * The careful reader's section of the sensitivity table (pure): recall by condition, stratum and
 * language beside the reference agent's, and a finding for every stratum where the reader is not
 * at least READER_MARGIN below — on hand-made episode rows whose means are computed by hand.
 */
import { describe, expect, it } from "vitest";
import type { EpisodeRow } from "../../src/metrics/index.ts";
import { READER_MARGIN, readerSection } from "../../src/sensitivity/index.ts";

function row(condition: string, stratum: string, language: string, recall: number): EpisodeRow {
  return {
    semantic_task_id: `${stratum}-${language}`,
    answer_task_stratum: stratum,
    language,
    catalog_size: 100,
    condition,
    trial: 1,
    status: "completed",
    error_code: null,
    malformed_reason: null,
    metrics: { required_fact_recall: recall },
    facts: [],
  };
}

const reference = ["FULL", "ORACLE"].flatMap((c) => [
  row(c, "transform", "en", 1),
  row(c, "transform", "ko", 1),
  row(c, "literature", "en", 1),
  row(c, "literature", "ko", 1),
]);
// Under ORACLE the reader reads the transform records well: mean 0.8, within 0.25 of 1.
const reader = [
  row("FULL", "transform", "en", 0.5),
  row("FULL", "transform", "ko", 0),
  row("FULL", "literature", "en", 0.25),
  row("FULL", "literature", "ko", 0.25),
  row("ORACLE", "transform", "en", 1),
  row("ORACLE", "transform", "ko", 0.6),
  row("ORACLE", "literature", "en", 0.5),
  row("ORACLE", "literature", "ko", 0),
];

describe("the careful reader's section", () => {
  const section = readerSection("careful-reader", ["FULL", "ORACLE"], reference, reader);
  const cell = (condition: string, group: string, name: string) =>
    section.cells.find((c) => c.condition === condition && c.group === group && c.name === name);

  it("gives recall per condition, overall, by stratum and by language", () => {
    expect(section.cells.map((c) => `${c.condition}/${c.group}/${c.name}`)).toEqual([
      "FULL/all/all",
      "FULL/stratum/literature",
      "FULL/stratum/transform",
      "FULL/language/en",
      "FULL/language/ko",
      "ORACLE/all/all",
      "ORACLE/stratum/literature",
      "ORACLE/stratum/transform",
      "ORACLE/language/en",
      "ORACLE/language/ko",
    ]);
    expect(cell("FULL", "all", "all")).toMatchObject({ episodes: 4, reference: 1, reader: 0.25 });
    expect(cell("ORACLE", "language", "en")).toMatchObject({ reference: 1, reader: 0.75, difference: -0.25 });
    expect(cell("ORACLE", "stratum", "transform")).toMatchObject({ reader: 0.8 });
  });

  it("reports a stratum within the margin as a finding, not an error", () => {
    expect(READER_MARGIN).toBe(0.25);
    expect(section.sound).toBe(false);
    expect(section.findings.map((f) => [f.condition, f.stratum, f.reader])).toEqual([
      ["ORACLE", "transform", 0.8],
    ]);
    // Exactly 0.25 below (ORACLE literature: 0.25 against 1 is 0.75 below; FULL transform 0.25) is below enough.
    const edge = readerSection("careful-reader", ["FULL"], reference.slice(0, 2), [
      row("FULL", "transform", "en", 0.75),
      row("FULL", "transform", "ko", 0.75),
    ]);
    expect(edge.sound).toBe(true);
  });
});
