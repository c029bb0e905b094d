/** Gates: the prerequisite (conveyor) state now; thresholds and the verdict come with scoring. */
export { CONVEYOR_FORMAT, conveyorSchema, prerequisiteStatus, STAGE_STATES, unmetNeeds, type ArtifactCheck, type Blocker, type Conveyor, type Evidence, type PrerequisiteStatus, type StageState } from "./conveyor.ts";
export { BOUNDARY_SLACK, evaluateGate, gateExitCode, type CheckResult, type ConditionVerdict, type Gate, type GateInputs, type IntervalView } from "./verdict.ts";
