import { describe, expect, it } from "vitest";
import { loadUnitConverter } from "../../src/core/index.ts";

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

  it("calls a label with a number inside (1/K) not convertible, instead of throwing mid-score", () => {
    // mathjs parses `1/K` with a value and refuses to convert to it; a model may write it anyway.
    expect(units.convertible("ppm/K", "1/degC")).toBe(false);
    expect(units.convert(6.9, "ppm/K", "1/K")).toBeNull();
    expect(units.convert(6.9, "um/(m*K)", "ppm/K")).toBeCloseTo(6.9, 9);
  });
});
