/** Nice axis ticks: hand-computed cases, then the rules on any domain. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { niceTicks } from "../../src/report/ticks.ts";

describe("niceTicks", () => {
  it("steps by 0.01 from -0.01 to 0.05 for the domain that made 0.0025 and 0.050 collide", () => {
    // span 0.0581 / 6 = 0.0097 → 0.01: floor(-0.81) = -1 … ceil(5) = 5, six intervals.
    expect(niceTicks(-0.0081, 0.05, 6)).toEqual({
      step: 0.01,
      ticks: [-0.01, 0, 0.01, 0.02, 0.03, 0.04, 0.05],
      labels: ["-0.01", "0.00", "0.01", "0.02", "0.03", "0.04", "0.05"],
    });
  });

  it("takes the next nice step when the smaller one needs too many intervals", () => {
    // span 0.714 / 6 = 0.119: 0.1 needs -7 … 1 = 8 intervals, 0.2 needs -4 … 1 = 5.
    expect(niceTicks(-0.664, 0.05, 6)).toEqual({
      step: 0.2,
      ticks: [-0.8, -0.6, -0.4, -0.2, 0, 0.2],
      labels: ["-0.8", "-0.6", "-0.4", "-0.2", "0.0", "0.2"],
    });
    // ±0.05 / 6 = 0.0167: 0.01 needs 10 intervals, 0.02 needs -3 … 3 = 6.
    expect(niceTicks(-0.05, 0.05, 6).ticks).toEqual([-0.06, -0.04, -0.02, 0, 0.02, 0.04, 0.06]);
    // 0.5 steps: one decimal.
    expect(niceTicks(-0.9, 0.7, 4)).toEqual({
      step: 0.5,
      ticks: [-1, -0.5, 0, 0.5, 1],
      labels: ["-1.0", "-0.5", "0.0", "0.5", "1.0"],
    });
  });

  it("labels whole steps without decimals, and keeps decimal ticks exact (3 × 0.1 is 0.3)", () => {
    expect(niceTicks(3, 97, 5)).toEqual({
      step: 20,
      ticks: [0, 20, 40, 60, 80, 100],
      labels: ["0", "20", "40", "60", "80", "100"],
    });
    expect(niceTicks(-48455, -29726, 6)).toEqual({
      step: 5000,
      ticks: [-50000, -45000, -40000, -35000, -30000, -25000],
      labels: ["-50000", "-45000", "-40000", "-35000", "-30000", "-25000"],
    });
    expect(niceTicks(0, 0.7, 7).ticks).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]);
    expect(niceTicks(0.0012, 0.0049, 4)).toEqual({
      step: 0.001,
      ticks: [0.001, 0.002, 0.003, 0.004, 0.005],
      labels: ["0.001", "0.002", "0.003", "0.004", "0.005"],
    });
  });

  it("widens a one-point domain to the power of ten around it, and refuses a bad one", () => {
    expect(niceTicks(0, 0, 6).ticks).toEqual([-1, -0.5, 0, 0.5, 1]);
    // [0.02, 0.04] / 4 = 0.005: 4 … 8 steps of 0.005, three decimals.
    expect(niceTicks(0.03, 0.03, 4)).toEqual({
      step: 0.005,
      ticks: [0.02, 0.025, 0.03, 0.035, 0.04],
      labels: ["0.020", "0.025", "0.030", "0.035", "0.040"],
    });
    expect(() => niceTicks(1, 0, 6)).toThrow(RangeError);
    expect(() => niceTicks(Number.NEGATIVE_INFINITY, 0, 6)).toThrow(RangeError);
    expect(() => niceTicks(0, 1, 0)).toThrow(RangeError);
  });

  it("covers the domain in at most maxTicks intervals of the smallest 1/2/5 step, with 0 when it is inside", () => {
    const finite = fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true });
    fc.assert(
      fc.property(finite, finite, fc.integer({ min: 1, max: 10 }), (a, b, maxTicks) => {
        const [min, max] = a <= b ? [a, b] : [b, a];
        fc.pre(max - min > 1e-9 * Math.max(1, Math.abs(min), Math.abs(max)));
        const { step, ticks, labels } = niceTicks(min, max, maxTicks);
        const exponent = Math.floor(Math.log10(step) + 1e-9);
        const mantissa = Math.round(step / 10 ** exponent);
        expect([1, 2, 5]).toContain(mantissa);
        expect(ticks.length - 1).toBeLessThanOrEqual(maxTicks);
        const slack = step * 1e-6;
        expect(ticks[0] as number).toBeLessThanOrEqual(min + slack);
        expect(ticks[ticks.length - 1] as number).toBeGreaterThanOrEqual(max - slack);
        ticks.slice(1).forEach((t, i) => expect(t - (ticks[i] as number)).toBeCloseTo(step, 6));
        if (min <= 0 && max >= 0) expect(ticks).toContain(0);
        expect(new Set(labels).size).toBe(labels.length);
        // The next smaller nice step would need more intervals than allowed.
        const smaller = mantissa === 1 ? 5 * 10 ** (exponent - 1) : (mantissa === 2 ? 1 : 2) * 10 ** exponent;
        const needed = Math.ceil(max / smaller - 1e-9) - Math.floor(min / smaller + 1e-9);
        expect(needed).toBeGreaterThan(maxTicks);
      }),
      { numRuns: 500 },
    );
  });
});
