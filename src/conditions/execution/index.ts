/** Execution: one episode — the agent loop, the replay executor, how tools are rendered and tokens counted. */
export {
  runEpisode,
  type EpisodeInput,
  type EpisodeOutcome,
  type LoopSettings,
  type TurnRecord,
} from "./loop.ts";
export { ReplayExecutor } from "./replay.ts";
export {
  GOLD_TRIGGER_LABEL,
  MORE_TOOLS_SHOWN,
  NO_MORE_TOOLS,
  PROGRESSIVE_TRIGGERS,
  requestsMoreTools,
  type ProgressiveTrigger,
} from "./widening.ts";
export { unmatchedReply } from "./unmatched.ts";
export { ANSWER_FORM_HEADING, renderField, renderUserMessage } from "./user-message.ts";
export { EXECUTOR_ERROR_CODES, type Attempt, type ToolCall, type Visible } from "./types.ts";
export { renderTool, renderTools, type Message, type ToolDefinition } from "./render.ts";
export {
  DEFAULT_TOKENIZER,
  loadTokenCounter,
  TOKENIZERS,
  TurnTokenCounter,
  type TokenCounter,
} from "./tokens.ts";
