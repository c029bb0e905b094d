/**
 * The task-cluster bootstrap of workflow success (§6). Tasks, not trials, are resampled: three
 * trials of one task are one draw, not three independent ones. The generator, its seed and the
 * order of draws are the reference implementation's, so intervals agree to the last digit.
 */

export const TASK_CLUSTER_BOOTSTRAP = {
  iterations: 20_000,
  seed: 0x51f15e,
  /** state ← (1664525·state + 1013904223) mod 2³², index = ⌊state / 2³² · n⌋. */
  generator: "lcg32",
} as const;

/** A uniform index below n from a 32-bit linear congruential generator. */
export function lcgIndexDraw(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    // Math.imul keeps the product exact modulo 2³² where a plain multiply would lose low bits.
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return Math.floor((state / 2 ** 32) * n);
  };
}

/**
 * The 95% percentile interval (the estimates at ⌊0.025·N⌋ and ⌊0.975·N⌋) of the mean task success rate, unrounded. `outcomes` are
 * [task id, success] pairs in record order; tasks are averaged first and resampled in the order
 * they first appear. One task gives [v, v]; none gives [0, 0].
 */
export function taskClusterInterval(
  outcomes: ReadonlyArray<readonly [string, boolean]>,
  settings: { iterations: number; seed: number } = TASK_CLUSTER_BOOTSTRAP,
): [number, number] {
  const byTask = new Map<string, number[]>();
  for (const [task, success] of outcomes) {
    const values = byTask.get(task);
    if (values) values.push(success ? 1 : 0);
    else byTask.set(task, [success ? 1 : 0]);
  }
  const rates = [...byTask.values()].map(
    (values) => values.reduce((total, value) => total + value, 0) / values.length,
  );
  if (rates.length <= 1) {
    const only = rates[0] ?? 0;
    return [only, only];
  }
  const draw = lcgIndexDraw(settings.seed);
  const estimates = new Float64Array(settings.iterations);
  for (let iteration = 0; iteration < settings.iterations; iteration++) {
    let total = 0;
    for (let k = 0; k < rates.length; k++) total += rates[draw(rates.length)] as number;
    estimates[iteration] = total / rates.length;
  }
  estimates.sort();
  return [percentile(estimates, 0.025), percentile(estimates, 0.975)];
}

/** The element at ⌊p·N⌋ of the sorted estimates (no interpolation), clamped to the array. */
function percentile(sorted: Float64Array, p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.floor(p * sorted.length)));
  return sorted[index] as number;
}
