/** Export: a scored run in formats other tools open — an Inspect AI eval log, and CSV for a dataframe. */
export { episodesCsv, csvField, csvLine, metricColumns } from "./csv.ts";
export { inspectLog, modelName, resultScores, sampleId, type ExportInput } from "./inspect.ts";
export { targetLine } from "./episode.ts";
export {
  inspectLogSchema,
  sampleSchema,
  type InspectLog,
  type InspectMessage,
  type InspectSample,
} from "./inspect-schema.ts";
