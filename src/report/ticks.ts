/**
 * "Nice" axis ticks: a step of 1, 2 or 5 × 10^k, every tick a whole multiple of it (so 0 is a tick
 * whenever the domain holds 0), and labels with exactly the decimals the step needs, so
 * neighbouring labels never read 0.0025 and 0.050.
 */

export interface Ticks {
  /** The step between ticks: 1, 2 or 5 × 10^k. */
  readonly step: number;
  /** Ascending; the first is ≤ min and the last ≥ max, so they also give the axis its domain. */
  readonly ticks: readonly number[];
  /** Each tick with the step's decimals ("-0.01", "0.00", …). */
  readonly labels: readonly string[];
}

const MANTISSAS = [1, 2, 5] as const;
/** Slack for quotients like 0.05 / 0.01 = 5.000000000000001, so a bound on a tick adds no step. */
const EPSILON = 1e-9;

/**
 * The smallest nice step whose ticks cover [min, max] in at most `maxTicks` intervals (so at most
 * `maxTicks + 1` ticks, the outer two at or beyond the domain). A domain of one point is widened
 * to the power of ten around it.
 */
export function niceTicks(min: number, max: number, maxTicks: number): Ticks {
  if (!Number.isFinite(min) || !Number.isFinite(max) || min > max)
    throw new RangeError(`niceTicks: need finite min ≤ max, got [${min}, ${max}]`);
  if (!Number.isInteger(maxTicks) || maxTicks < 1)
    throw new RangeError(`niceTicks: maxTicks must be a positive integer, got ${maxTicks}`);
  if (min === max) {
    const pad = min === 0 ? 1 : 10 ** Math.floor(Math.log10(Math.abs(min)));
    return niceTicks(min - pad, max + pad, maxTicks);
  }
  const raw = (max - min) / maxTicks;
  let exponent = Math.floor(Math.log10(raw));
  for (;;) {
    for (const mantissa of MANTISSAS) {
      const step = mantissa * 10 ** exponent;
      const first = Math.floor(min / step + EPSILON);
      const last = Math.ceil(max / step - EPSILON);
      if (last - first > maxTicks) continue;
      const decimals = Math.max(0, -exponent);
      // k × step in decimal: 3 × 0.1 is 0.30000000000000004; its label and value are 0.3.
      const ticks = Array.from({ length: last - first + 1 }, (_, i) => {
        const value = Number(((first + i) * step).toFixed(decimals));
        return value === 0 ? 0 : value; // never −0
      });
      return { step: Number(step.toFixed(decimals)), ticks, labels: ticks.map((t) => t.toFixed(decimals)) };
    }
    exponent += 1;
  }
}
