/** The point estimate every interval is centred on. */
/** Mean over all tasks of the defined values, summed in id order (null when none is defined). */
export function pointEstimate(values: readonly (number | null)[]): number | null {
  let sum = 0;
  let n = 0;
  for (const v of values)
    if (v !== null) {
      sum += v;
      n += 1;
    }
  return n === 0 ? null : sum / n;
}
