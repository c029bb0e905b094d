/** The paired stratified task-cluster bootstrap: replicates, the preregistered percentile interval and the calibrated ones. */
export {
  bootstrap,
  pointEstimate,
  type BootstrapOptions,
  type BootstrapResult,
  type BootstrapTask,
  type Interval,
  type Statistic,
} from "./core.ts";
export { percentile } from "./order-statistics.ts";
export { skewTInterval, type SkewTInterval } from "./skew-t.ts";
export { createDraw, PythonRandom, type IndexDraw, type RngName } from "../../core/index.ts";
export {
  buildStatistics,
  equallyWeighted,
  perTaskValue,
  POOLED,
  statisticKey,
  type StatisticsSpec,
  type TrialValues,
} from "./statistics.ts";
