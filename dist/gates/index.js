/** Gates: the prerequisite (conveyor) state, the thresholds and the verdict, and its text. */
export { CONVEYOR_FORMAT, conveyorSchema, prerequisiteStatus, STAGE_STATES, unmetNeeds, } from "./conveyor.js";
export { BOUNDARY_SLACK, evaluateGate, gateExitCode, } from "./verdict.js";
export { renderGate } from "./text.js";
