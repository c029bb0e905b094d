/** The summary: its schema (zod first, the type inferred), and building it from scored episodes. */
export { SUMMARY_FORMAT, summaryJsonSchema, summarySchema } from "./schema.js";
export { summarizeEpisodes } from "./statistics.js";
export { buildSummary, gateFor, missingEpisodes, reportedModels, } from "./build.js";
