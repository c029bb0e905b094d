export { bootstrap, percentile, pointEstimate, type BootstrapOptions, type BootstrapResult, type BootstrapTask, type Interval, type Statistic } from "./core.ts";
export { createDraw, PythonRandom, type IndexDraw, type RngName } from "./rng.ts";
export { buildStatistics, perTaskValue, POOLED, statisticKey, type StatisticsSpec, type TrialValues } from "./statistics.ts";
