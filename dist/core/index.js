/** The core: hashing, reading, writing, text rules, seeded randomness, record keys and the tool's own location — what every stage shares. */
export { canonicalJson, canonicalSha256, sha256Hex } from "./canonical-json.js";
export { FabenchError, formatProblem, inputError, usageError, } from "./errors.js";
export { decodeUtf8, parseJsonLines, parseJsonText, readBytes } from "./json-file.js";
export { arrayElementStarts, jsonPathLines, locateJsonError } from "./json-syntax.js";
export { formatJsonFile, writeFileAtomic, writeJsonAtomic } from "./atomic-write.js";
export { caseFold, collapsePythonWhitespace, normalizeQuery } from "./normalize.js";
export { compareCodePoints, LineIndex, sortByCodePoint } from "./text.js";
export { issuePath, withJsonLines, zodProblems } from "./schema.js";
export { loadUnitConverter } from "./units.js";
export { jsonEqual } from "./json-equal.js";
export { createDraw, PythonRandom } from "./random.js";
export { episodeKey, taskSizeKey } from "./keys.js";
export { toolRevision, toolRoot, toolVersion } from "./tool.js";
