/** Gates: the prerequisite (conveyor) state, the thresholds and the verdict, and its text. */
export {
  CONVEYOR_FORMAT,
  conveyorSchema,
  prerequisiteStatus,
  STAGE_STATES,
  unmetNeeds,
  type ArtifactCheck,
  type Blocker,
  type Conveyor,
  type Evidence,
  type PrerequisiteStatus,
  type StageState,
} from "./conveyor.ts";
export {
  BOUNDARY_SLACK,
  evaluateGate,
  gateExitCode,
  type CheckResult,
  type ConditionVerdict,
  type Gate,
  type GateInputs,
  type IntervalView,
} from "./verdict.ts";
export {
  BASELINE_FAILED_BELOW,
  baselineRecall,
  baselineWarning,
  checkIntervals,
  checkRule,
  comparesToBaseline,
  conditionsNotRun,
  failedMetrics,
  NOT_PREREGISTERED,
  notRunReason,
  onTheNumbers,
  renderGate,
  verdictLine,
} from "./text.ts";
