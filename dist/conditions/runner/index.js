/** The runner: the episode matrix, run records and files, resuming, merging shards. */
export { episodeKey, globToRegExp, parseShard, planEpisodes, } from "./episodes.js";
export { RECORD_FORMAT, runMetadataSchema, runRecordSchema, } from "./record.js";
export { parseRunBytes, RunWriter } from "./run-file.js";
export { manifestIndex, runMatrix } from "./run.js";
export { mergeRuns } from "./merge.js";
