/**
 * Every interval method the bootstrap computes. `percentile` is the preregistered one; the others
 * are the calibrated intervals beside it. The protocol's `gate_interval` names one of them. (A
 * module of its own, without zod, so the CLI can offer the list as choices without loading schemas.)
 */
export const INTERVAL_METHODS = [
  "percentile",
  "percentile_widened",
  "bootstrap_t",
  "t_stratified",
  "skew_t",
] as const;
export type IntervalMethod = (typeof INTERVAL_METHODS)[number];
export type CalibratedMethod = Exclude<IntervalMethod, "percentile">;
