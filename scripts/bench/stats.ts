/** Shared shapes for benchmarks: every benchmark prints what it measured, with its target. */
export interface BenchResult {
  readonly name: string;
  readonly median_ms: number;
  readonly target: string;
  readonly met: boolean;
  readonly [figure: string]: unknown;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}
