import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { canonicalUnit, loadUnitConverter, resolveUnit, sameUnit, UNIT_TABLE } from "../../src/core/index.ts";
import { spellingKey, structuralKey } from "../../src/core/unit-table.ts";
import { unitTableMarkdown } from "./unit-table-markdown.ts";

describe("the unit converter", async () => {
  const units = await loadUnitConverter();

  it("converts within a dimension, both ways", () => {
    expect(units.convert(117400, "MPa", "GPa")).toBeCloseTo(117.4, 12);
    expect(units.convert(117.4, "GPa", "MPa")).toBeCloseTo(117400, 9);
    expect(units.convert(1, "ksi", "MPa")).toBeCloseTo(6.894757, 6);
  });

  it("refuses to convert across dimensions or from unknown labels", () => {
    expect(units.convertible("kPa", "GPa")).toBe(true);
    expect(units.convert(144, "kPa", "GPa")).toBeCloseTo(0.000144, 12);
    expect(units.convert(144, "K", "GPa")).toBeNull();
    expect(units.convert(144, "gigapascal-ish", "GPa")).toBeNull();
    expect(units.convertible("gpa", "GPa")).toBe(false);
  });

  it("reads the spellings people write: µ, superscripts, °C and %", () => {
    expect(units.convert(1, "N/mm²", "MPa")).toBeCloseTo(1, 12);
    expect(units.convert(1000, "µm", "mm")).toBeCloseTo(1, 12);
    expect(units.convert(25, "°C", "K")).toBeCloseTo(298.15, 9);
    expect(units.convert(50, "%", "ppm")).toBeCloseTo(500000, 6);
  });

  it("converts to 1/K through the table, and still refuses a label mathjs cannot convert to", () => {
    expect(units.convert(6.9, "ppm/K", "1/K")).toBeCloseTo(6.9e-6, 15);
    expect(units.convert(6.9e-6, "K⁻¹", "ppm/K")).toBeCloseTo(6.9, 9);
    expect(units.convert(6.9, "um/(m*K)", "ppm/K")).toBeCloseTo(6.9, 9);
    // not in the table, so mathjs is handed `1/degC` itself, which has a number inside
    expect(units.convertible("ppm/K", "1/degC")).toBe(false);
  });

  it("converts every spelling of a table unit to its canonical spelling with factor 1", () => {
    for (const entry of UNIT_TABLE)
      for (const spelling of entry.spellings) {
        expect(units.convertible(spelling, entry.canonical), `${spelling} → ${entry.canonical}`).toBe(true);
        expect(units.convert(7, spelling, entry.canonical), `${spelling} → ${entry.canonical}`).toBe(7);
      }
  });

  it("gives every convertible table unit an expression mathjs converts", () => {
    for (const entry of UNIT_TABLE.filter((e) => e.mathjs !== null))
      expect(units.convertible(entry.canonical, entry.mathjs!), entry.canonical).toBe(true);
    expect(units.convert(1, "W/(m·°C)", "W/(m·K)")).toBe(1);
    expect(units.convert(2, "ksi√in", "MPa√m")).toBeCloseTo(2 * 1.0988434940444, 9);
    expect(units.convert(1, "kV/mil", "kV/mm")).toBeCloseTo(39.37007874, 7);
    expect(units.convert(1, "KiB", "B")).toBe(1024);
  });

  it("converts a scale with no factor (hardness, counts) only to itself", () => {
    expect(units.convertible("HV", "HV")).toBe(true);
    expect(units.convert(310, "HV", "HV")).toBe(310);
    expect(units.convertible("HV", "HRC")).toBe(false);
    expect(units.convert(310, "HV", "HB")).toBeNull();
    expect(units.convert(12, "ea", "pcs")).toBe(12);
  });

  it("converts a difference without the offset, and everything else as before", () => {
    const diff = { difference: true } as const;
    expect(units.convert(5, "K", "°C", diff)).toBeCloseTo(5, 12);
    expect(units.convert(5, "K", "degF", diff)).toBeCloseTo(9, 12);
    expect(units.convert(9, "°F", "K", diff)).toBeCloseTo(5, 12);
    expect(units.convert(10, "℃", "°F", diff)).toBeCloseTo(18, 12);
    expect(units.convert(-3, "deg C", "K", diff)).toBeCloseTo(-3, 12);
    expect(units.convert(0.001, "K", "°F", diff)).toBeCloseTo(0.0018, 15);
    expect(units.convert(5, "K", "°C")).toBeCloseTo(-268.15, 9);
    expect(units.convert(117400, "MPa", "GPa", diff)).toBeCloseTo(117.4, 12);
    expect(units.convert(5, "K", "GPa", diff)).toBeNull();
  });
});

describe("the unit table", () => {
  it.each([
    ["°C", ["°C", "℃", "degC", "deg C"]],
    ["µm", ["µm", "μm", "um", "micron"]],
    ["W/(m·K)", ["W/(m·K)", "W/m/K", "W m-1 K-1", "W/(m*K)", "W·m⁻¹·K⁻¹", "W / (m · K)"]],
    ["g/cm³", ["g/cm³", "g/cm3", "g cm-3", "g·cm⁻³"]],
    ["MPa·m^0.5", ["MPa·m^0.5", "MPa√m", "MPa m^1/2", "MPa*m^0.5", "MPa·m½", "MPa m^(1/2)"]],
    ["%", ["%", "percent"]],
    ["ppm", ["ppm"]],
    ["kV/mm", ["kV/mm", "kV mm-1"]],
  ])("spells %s in every way the issue lists", (canonical, spellings) => {
    for (const spelling of spellings) expect(canonicalUnit(spelling), spelling).toBe(canonical);
  });

  it("never lets one spelling name two units", () => {
    const seen = new Map<string, string>();
    for (const entry of UNIT_TABLE)
      for (const spelling of [entry.canonical, ...entry.spellings])
        for (const key of [`s:${spellingKey(spelling)}`, `t:${structuralKey(spelling)}`]) {
          const owner = seen.get(key);
          expect(
            owner === undefined || owner === entry.canonical,
            `${spelling}: ${owner} and ${entry.canonical}`,
          ).toBe(true);
          seen.set(key, entry.canonical);
        }
  });

  it("keeps units apart that only convert into each other, and keeps case", () => {
    expect(sameUnit("MPa", "GPa")).toBe(false);
    expect(sameUnit("W/(m*degC)", "W/(m*K)")).toBe(false);
    expect(sameUnit("mS/cm", "MS/cm")).toBe(false);
    expect(sameUnit("mPa*s", "MPa*s")).toBe(false);
    expect(sameUnit("W/mK", "W/(m*K)")).toBe(true); // a common spelling, not milli-kelvin
  });

  it("lets a label it does not hold stand for itself, up to spelling", () => {
    expect(resolveUnit("N/mm2")).toEqual({ canonical: "N/mm²", mathjs: "N/mm^2", known: true });
    // A label the table does not hold is its own unit, spelled out.
    expect(resolveUnit("kN/mm²")).toEqual({ canonical: "kN/mm^2", mathjs: "kN/mm^2", known: false });
    expect(sameUnit("N/mm²", "N / mm2")).toBe(true);
    expect(sameUnit("N/mm²", "MPa")).toBe(false);
  });

  it("holds every unit label of the bundled corpus", () => {
    const corpus = JSON.parse(readFileSync("tasks/final-answer-corpus.json", "utf8")) as { tasks: unknown[] };
    const labels = new Set<string>();
    const walk = (node: unknown, key = ""): void => {
      if (typeof node === "string" && (key === "unit" || key === "units" || key.endsWith("_unit")))
        labels.add(node);
      else if (Array.isArray(node)) for (const item of node) walk(item, key === "accepted" ? "unit" : "");
      else if (node !== null && typeof node === "object")
        for (const [k, v] of Object.entries(node)) walk(v, k);
    };
    for (const task of corpus.tasks as Array<Record<string, unknown>>) {
      walk(task);
      for (const accepted of Object.values((task.accepted_units ?? {}) as Record<string, string[]>))
        walk(accepted, "accepted");
    }
    expect(labels.size).toBeGreaterThan(50);
    expect([...labels].filter((label) => !resolveUnit(label).known)).toEqual([]);
  });

  it("is shown in the metric definitions of docs/file-formats.md exactly as the code holds it", () => {
    const page = readFileSync("docs/file-formats.md", "utf8");
    const section = page.slice(page.indexOf("## Per-episode metrics"), page.indexOf("## Run record"));
    expect(section).toContain(unitTableMarkdown());
  });
});
