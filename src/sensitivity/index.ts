/**
 * Probe sensitivity: the reference agent and the probe agents (each with one flaw) through the
 * same matrix, scored by the scorer, and per probe the metric that must catch it and by how much
 * the probe falls below the reference agent on it.
 */
export {
  CATCH_MARGIN,
  PROBE_CHECKS,
  READER_MARGIN,
  type Aggregation,
  type MetricRef,
  type ProbeCheck,
} from "./checks.ts";
export { renderSensitivity } from "./render.ts";
export {
  runSensitivity,
  sensitivityConditions,
  type AgentRows,
  type SensitivityInput,
  type SensitivityRuns,
} from "./run.ts";
export {
  aggregateMetric,
  SENSITIVITY_FORMAT,
  sensitivityTable,
  type CellComparison,
  type Compared,
  type SensitivityRow,
  type SensitivityTable,
} from "./table.ts";
export { readerSection, type ReaderCell, type ReaderFinding, type ReaderSection } from "./reader.ts";
