/** The paired stratified task-cluster bootstrap: replicates, the preregistered percentile interval and the calibrated ones. */
export { bootstrap, pointEstimate, } from "./core.js";
export { percentile } from "./order-statistics.js";
export { createDraw, PythonRandom } from "../../core/index.js";
export { buildStatistics, perTaskValue, POOLED, statisticKey, } from "./statistics.js";
