/**
 * The simulator's front door: scenarios, the coverage and power simulators, the gate-interval
 * rule's selection, their output schemas and text tables. `metrics/index.ts` re-exports the older
 * part of it; commands that need the rest import it here.
 */
export { drawDataset, simulateScenario, type Design, type SimulationOptions } from "./coverage.ts";
export { beta, gamma, normal } from "./draw.ts";
export { designTasks, intervalsOf, type Bounds } from "./intervals.ts";
export { pilotDeltas, type PilotEpisode } from "./pilot.ts";
export { powerReport, type PowerReportInput } from "./power-report.ts";
export {
  POWER_ASSUMPTION,
  simulatePower,
  tasksNeeded,
  trialScale,
  type PowerOptions,
  type PowerRow,
} from "./power.ts";
export { protocolLine, renderCoverage, renderSelection } from "./render.ts";
export {
  BUILT_IN_SCENARIOS,
  scenarioFileSchema,
  scenarioSchema,
  type BinaryScenario,
  type ContinuousScenario,
  type OneStratumScenario,
  type Scenario,
} from "./scenarios.ts";
export {
  coverageStudyJsonSchema,
  coverageStudySchema,
  gateIntervalRuleSchema,
  METHODS,
  powerReportJsonSchema,
  powerReportSchema,
  selectionSchema,
  type CoverageStudy,
  type GateIntervalRule,
  type Method,
  type MethodResult,
  type MethodVerdict,
  type PowerReport,
  type RuleVerdict,
  type ScenarioResult,
  type Selection,
} from "./schema.ts";
export {
  ruleDeviations,
  ruleVerdicts,
  selectMethod,
  type MethodSelection,
  type RuleBounds,
  type RunConfiguration,
} from "./select.ts";
export { scenarioSet, type ScenarioSetProblem } from "./scenario-set.ts";
export {
  hurtShare,
  inHurtStratum,
  recentreBinary,
  recentring,
  recentringProblems,
  trueDelta,
  type Recentring,
  type Strata,
} from "./truth.ts";
