/** Execution: one episode — the agent loop, the replay executor, how tools are rendered and tokens counted. */
export { runEpisode, } from "./loop.js";
export { ReplayExecutor } from "./replay.js";
export { EXECUTOR_ERROR_CODES } from "./types.js";
export { renderTool, renderTools } from "./render.js";
export { DEFAULT_TOKENIZER, loadTokenCounter, TOKENIZERS, TurnTokenCounter, } from "./tokens.js";
