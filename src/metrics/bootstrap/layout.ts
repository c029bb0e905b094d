/**
 * The bootstrap's options and how its statistics are laid out as columns: shared by the entry
 * point (core.ts) and the calibrated intervals (calibration.ts), so neither imports the other.
 */
import type { RngName } from "../../core/index.ts";
import type { CellTable } from "./multiset-tables.ts";
import type { SkewTInterval } from "./skew-t.ts";

export interface BootstrapOptions {
  /** Also compute the calibrated intervals (widened percentile, stratified bootstrap-t, stratified t). */
  readonly calibrated?: boolean;
  /** Sum columns with WebAssembly SIMD when the runtime has it (default); false: plain JavaScript. Same bits either way. */
  readonly simd?: boolean;
  readonly iterations: number;
  readonly seed: number;
  readonly rng: RngName;
  readonly confidence: number;
}

/** How the statistics map onto the columns the multiset tables sum; calibration reads its extra columns and observed SEs here too. */
export interface Layout {
  /** Each statistic's values in sorted task order. */
  readonly sorted: Array<Array<number | null>>;
  /** Each statistic's "defined" pattern. */
  readonly patternOf: number[];
  /** Each statistic as weighted base rows: its own, or its combination's. */
  readonly terms: Array<Array<[number, number]>>;
  /** Base rows that need sums of their own; the pattern counts follow them. */
  readonly rows: number;
  /** Base columns: rows, then pattern counts. */
  readonly width: number;
  /** With calibrated intervals: two more columns per statistic after the base ones (variance, widened deviation). */
  readonly extras: number;
  readonly tables: CellTable[];
  /** Per statistic: observed stratified SE, Satterthwaite df and the skew_t bounds (calibrated only). */
  readonly observed: Array<{ se: number | null; df: number | null; skewT: SkewTInterval }>;
}
