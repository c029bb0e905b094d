/** The core: hashing, reading, writing, text rules, seeded randomness, bounded concurrency, record keys and the tool's own location — what every stage shares. */
export { canonicalJson, canonicalSha256, loneSurrogatePath, sha256Hex } from "./canonical-json.ts";
export { pointerOf, pointerTokens, resolvePointer } from "./json-pointer.ts";
export {
  FabenchError,
  formatProblem,
  inputError,
  usageError,
  type ErrorKind,
  type Problem,
  type Result,
  INTERRUPTED,
  interruptedError,
} from "./errors.ts";
export {
  capJsonProblems,
  formatCount,
  JSON_PROBLEM_LIMIT,
  KIND_PROBE_LINES,
  LISTED_PER_FILE,
  notOfKindMessage,
  problemLines,
  restLine,
  type JsonProblemList,
} from "./problem-list.ts";
export {
  decodeUtf8,
  DEFAULT_READ_LIMIT,
  parseJsonLines,
  parseJsonText,
  READ_LIMITS,
  readBytes,
  readLimit,
  type JsonLine,
} from "./json-file.ts";
export {
  depthBreach,
  hasNonFiniteNumber,
  MAX_FILE_JSON_DEPTH,
  MAX_JSON_DEPTH,
  nestedDeeperThan,
  parseBoundedJson,
  type BoundedJson,
} from "./json-bounded.ts";
export { arrayElementStarts, jsonPathLines, locateJsonError, type JsonPath } from "./json-syntax.ts";
export {
  formatJsonFile,
  makeFolders,
  syncFolder,
  writeFailure,
  writeFileAtomic,
  writeJsonAtomic,
} from "./atomic-write.ts";
export {
  caseFold,
  collapsePythonWhitespace,
  foldQuotesAndDashes,
  normalizeIdentifier,
  normalizeQuery,
  normalizeText,
} from "./normalize.ts";
export { compareCodePoints, LineIndex, sortByCodePoint } from "./text.ts";
export { mapConcurrent } from "./concurrency.ts";
export { instantOf, sameInstant } from "./instant.ts";
export { CircuitBreaker, DEFAULT_BREAKER, type Tripped } from "./circuit-breaker.ts";
export { issuePath, withJsonLines, zodProblems } from "./schema.ts";
export { loadUnitConverter, type ConvertOptions, type UnitConverter } from "./units.ts";
export {
  canonicalUnit,
  resolveUnit,
  sameUnit,
  UNIT_TABLE,
  type ResolvedUnit,
  type UnitEntry,
} from "./unit-table.ts";
export { jsonEqual } from "./json-equal.ts";
export { createDraw, PythonRandom, type IndexDraw, type RngName } from "./random.ts";
export { episodeKey, taskSizeKey, type EpisodeKey } from "./keys.ts";
export {
  BUNDLED_FILES,
  type BundledName,
  bundledPath,
  isBundledName,
  isInstalledRoot,
  placeTool,
  type ToolPlace,
  toolInstalled,
  toolRevision,
  toolRoot,
  toolVersion,
} from "./tool.ts";
export { declaredFormat, formatOf, wrongKind } from "./file-kind.ts";
export { userCacheDir, type Environment } from "./cache-dir.ts";
export {
  jsonFilesIn,
  loadJson,
  loadWithSchema,
  readTextFile,
  type Loaded,
  type TextFile,
} from "./json-input.ts";
export { checkOutput, isInsideFolder, type OutputRules } from "./outputs.ts";
export {
  acquireWriteLock,
  checkNotBeingWritten,
  describeWriter,
  liveWriterOf,
  lockFileOf,
  type LiveWriter,
  type WriteLock,
} from "./write-lock.ts";
export { canonicalPath } from "./file-identity.ts";
export { JsonlAppender, type AppendFs } from "./jsonl-appender.ts";
export {
  ByteTail,
  type ChildOutcome,
  type ChildRun,
  decodeStrictUtf8,
  liveGroupCount,
  releaseGroup,
  runChild,
  type SpawnChild,
  type StopReason,
  stopAllChildren,
  trackGroup,
} from "./child-process.ts";
export { knownKeyValues, REDACTED, redactSecrets, rememberKeyValues } from "./secrets.ts";
export {
  anything as quickAnything,
  arrayOf as quickArrayOf,
  int as quickInt,
  isObject as quickIsObject,
  nonnegative as quickNonnegative,
  nullable as quickNullable,
  num as quickNum,
  oneOf as quickOneOf,
  plainRecord as quickPlainRecord,
  positive as quickPositive,
  sha as quickSha,
  str as quickStr,
  strict as quickStrict,
  type Check as QuickCheck,
} from "./quick-check.ts";
