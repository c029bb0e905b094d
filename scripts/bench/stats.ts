/** Shared shapes for benchmarks: every benchmark prints what it measured, with its target. */
export interface BenchResult {
  readonly name: string;
  readonly median_ms: number;
  readonly target: string;
  readonly met: boolean;
  readonly [figure: string]: unknown;
}

/**
 * FABENCH_BENCH_SMOKE=1 runs every benchmark once on tiny inputs: a test does this so benchmarks
 * cannot rot unnoticed. Its timings mean nothing, so run-all.ts judges no target in this mode:
 * targets are judged only by a full `npm run bench`.
 */
export const SMOKE = process.env["FABENCH_BENCH_SMOKE"] === "1";
export const runs = (n: number): number => (SMOKE ? 1 : n);

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}
