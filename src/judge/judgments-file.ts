/**
 * Reading judgments files (`fabench judge run` output: one `fabench-judgment/v1` line per episode)
 * for the summary and for `fabench judge agreement`. Every bad line is a problem with its own code
 * and line, all of them reported at once (the CLI prints 50 per file, then counts the rest by code);
 * nothing is repaired. A file of another fabench kind is named in one line instead.
 *
 * Like a run file, a judgments file is appended line by line, so a killed writer can leave one torn
 * last line without its newline: it is dropped and counted. A last line that is merely missing its
 * newline but parses is kept — truncating a JSON object anywhere else cannot leave valid JSON.
 */
import type { Protocol } from "../authoring/index.ts";
import {
  decodeUtf8,
  declaredFormat,
  depthBreach,
  episodeKey,
  formatOf,
  inputError,
  issuePath,
  KIND_PROBE_LINES,
  MAX_FILE_JSON_DEPTH,
  notOfKindMessage,
  readBytes,
  sha256Hex,
  wrongKind,
  type FabenchError,
  type Problem,
} from "../core/index.ts";
import { JUDGMENT_FORMAT, judgmentSchema, type Judgment } from "./record.ts";

/** The stage judgments files are read in (errors, and the size limit: the default one). */
export const JUDGMENTS_STAGE = "judgments";

/** The judge block of a protocol: the dimensions every judged line must rate. */
export type JudgeProtocol = Protocol["judge"];

export interface ParsedJudgments {
  readonly judgments: Judgment[];
  /** 1-based line of each judgment. */
  readonly lines: number[];
  /** Bytes of a torn last line that was dropped (0 when none). */
  readonly tornBytes: number;
  readonly problems: Problem[];
}

export interface JudgmentsFile {
  readonly path: string;
  /** SHA-256 of the file's raw bytes. */
  readonly sha256: string;
  readonly judgments: Judgment[];
  readonly lines: number[];
  readonly tornBytes: number;
}

/**
 * Parses and checks one judgments file's text against the protocol it claims to be judged under:
 * the schema, each status's fields, the ratings (exactly the protocol's dimensions, each an
 * integer on its scale), one line per episode, and `protocol_sha256`.
 */
export function parseJudgmentsText(
  text: string,
  file: string,
  judge: JudgeProtocol,
  protocolSha256: string,
): ParsedJudgments {
  const judgments: Judgment[] = [];
  const lines: number[] = [];
  const problems: Problem[] = [];
  const kind = kindProblem(file, declaredFormat(text));
  if (kind) return { judgments, lines, tornBytes: 0, problems: [kind] };
  const all = text.split("\n");
  let tornBytes = 0;
  // The part after the last newline: a complete line missing its newline, or what a killed writer left.
  const tail = all.at(-1) ?? "";
  if (tail.trim() !== "" && !parses(tail)) {
    tornBytes = Buffer.byteLength(tail, "utf8");
    all.pop();
  }
  const seen = new Map<string, number>();
  const foreign = new Map<string, { line: number; count: number }>();
  let probed = 0;
  // Whether any line so far is a judgment or claims a fabench format: then every bad line is
  // reported on its own, instead of one "not a judgments file".
  let judgmentLike = false;
  for (let index = 0; index < all.length; index++) {
    const raw = all[index] as string;
    const content = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (content.trim() === "") continue;
    if (!judgmentLike && ++probed > KIND_PROBE_LINES) return notAJudgmentsFile(file, probed - 1);
    const line = index + 1;
    const at = (code: string, message: string): Problem => ({ code, message, file, line });
    const read = readLine(content);
    if (!read.ok) {
      problems.push(at(read.code, read.message));
      continue;
    }
    const value = read.value;
    const parsed = judgmentSchema.safeParse(value);
    if (!parsed.success) {
      judgmentLike ||= formatOf(value) !== null;
      for (const issue of parsed.error.issues)
        problems.push(at("invalid_judgment", `${issuePath(issue.path)}: ${issue.message}`));
      continue;
    }
    judgmentLike = true;
    const j = parsed.data;
    const own = statusProblems(j, judge).map((p) => at(p.code, p.message));
    problems.push(...own);
    const key = episodeKey(j.episode);
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      problems.push(at("duplicate_judgment", `episode ${key} is judged again (first on line ${earlier})`));
      continue;
    }
    seen.set(key, line);
    if (j.protocol_sha256 !== protocolSha256) {
      const f = foreign.get(j.protocol_sha256);
      if (f) f.count += 1;
      else foreign.set(j.protocol_sha256, { line, count: 1 });
    }
    if (own.length > 0) continue;
    judgments.push(j);
    lines.push(line);
  }
  if (!judgmentLike && probed > 0) return notAJudgmentsFile(file, probed);
  // One problem per foreign protocol, not one per line: the whole file was judged under it.
  for (const [sha, { line, count }] of foreign)
    problems.push({
      code: "judgment_protocol_mismatch",
      message: `${count} judgment(s), from this line on, were made under protocol ${sha.slice(0, 12)}…, not the given one (${protocolSha256.slice(0, 12)}…); pass the protocol they were judged under with --protocol`,
      file,
      line,
    });
  if (judgments.length === 0 && problems.length === 0)
    problems.push({ code: "empty_file", message: "the file holds no judgments", file });
  return { judgments, lines, tornBytes, problems };
}

/** What a line's status requires of its other fields, and its ratings against the protocol. */
export function statusProblems(j: Judgment, judge: JudgeProtocol): Array<{ code: string; message: string }> {
  const out: Array<{ code: string; message: string }> = [];
  const inconsistent = (message: string) => out.push({ code: "judgment_inconsistent", message });
  if (j.status !== "judged") {
    if (j.reason === null) inconsistent(`status ${j.status} needs a reason code`);
    if (j.ratings !== null) inconsistent(`status ${j.status} has ratings; only a judged line has them`);
    return out;
  }
  if (j.reason !== null) inconsistent(`a judged line has no reason (found ${JSON.stringify(j.reason)})`);
  if (j.answer_sha256 === null) inconsistent("a judged line needs the answer_sha256 of the answer it rated");
  if (j.ratings === null) {
    inconsistent("a judged line needs ratings");
    return out;
  }
  const wanted = new Set(judge.dimensions.map((d) => d.id));
  for (const d of judge.dimensions) {
    const rating = j.ratings[d.id];
    if (rating === undefined)
      out.push({ code: "judgment_ratings", message: `ratings.${d.id}: missing (the protocol rates it)` });
    else if (rating < d.min || rating > d.max)
      out.push({
        code: "rating_out_of_range",
        message: `ratings.${d.id}: ${rating} is off the protocol's ${d.min}–${d.max} scale`,
      });
  }
  for (const id of Object.keys(j.ratings))
    if (!wanted.has(id))
      out.push({ code: "judgment_ratings", message: `ratings.${id}: not a dimension of the protocol` });
  return out;
}

/** Every problem of every file, as one input error (exit 2); nothing when there is none. */
export function judgmentsError(problems: readonly Problem[]): FabenchError | null {
  const first = problems[0];
  if (!first) return null;
  return inputError(JUDGMENTS_STAGE, first.code, first.message, { problems });
}

/**
 * Reads judgments files: every problem of every file is gathered before one error is thrown, so a
 * person fixes them in one pass. `warn` hears of torn last lines that were dropped.
 */
export function readJudgmentsFiles(
  paths: readonly string[],
  judge: JudgeProtocol,
  protocolSha256: string,
  warn: (line: string) => void,
): JudgmentsFile[] {
  const files: JudgmentsFile[] = [];
  const problems: Problem[] = [];
  for (const path of paths) {
    const bytes = readBytes(path, JUDGMENTS_STAGE);
    const parsed = parseJudgmentsText(decodeUtf8(bytes, path, JUDGMENTS_STAGE), path, judge, protocolSha256);
    problems.push(...parsed.problems);
    if (parsed.tornBytes > 0)
      warn(
        `${path}: ignoring a torn last line (${parsed.tornBytes} bytes); resume that judge run to finish it`,
      );
    files.push({
      path,
      sha256: sha256Hex(bytes),
      judgments: parsed.judgments,
      lines: parsed.lines,
      tornBytes: parsed.tornBytes,
    });
  }
  const error = judgmentsError(problems);
  if (error) throw error;
  return files;
}

/**
 * Episodes judged in more than one of several files read as one set (`score --judgments a b`):
 * which line counts would be a guess, so each is a problem.
 */
export function crossFileDuplicates(files: readonly JudgmentsFile[]): Problem[] {
  const first = new Map<string, string>();
  const problems: Problem[] = [];
  for (const f of files)
    f.judgments.forEach((j, i) => {
      const key = episodeKey(j.episode);
      const line = f.lines[i] as number;
      const earlier = first.get(key);
      if (earlier === undefined) first.set(key, `${f.path}:${line}`);
      else
        problems.push({
          code: "duplicate_judgment",
          message: `episode ${key} is judged again (first at ${earlier}); keep one line per episode`,
          file: f.path,
          line,
        });
    });
  return problems;
}

/** One line's JSON; one nested deeper than any judgment is refused before it is parsed (the schema recurses). */
function readLine(
  content: string,
): { ok: true; value: unknown } | { ok: false; code: string; message: string } {
  if (depthBreach(content, MAX_FILE_JSON_DEPTH) !== -1)
    return {
      ok: false,
      code: "json_too_deep",
      message: `arrays and objects nest deeper than ${MAX_FILE_JSON_DEPTH} levels`,
    };
  try {
    return { ok: true, value: JSON.parse(content) as unknown };
  } catch {
    return { ok: false, code: "invalid_json", message: "not valid JSON" };
  }
}

function parses(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

/**
 * A file whose first line declares another fabench format. `wrongKind` names it when the core
 * knows the judgments kind; until then this says it here.
 */
function kindProblem(file: string, found: string | null): Problem | null {
  if (found === null || found === JUDGMENT_FORMAT) return null;
  const known = wrongKind(file, found, JUDGMENT_FORMAT, JUDGMENTS_STAGE);
  if (known) return known.problems[0] ?? null;
  const family = (format: string) => format.replace(/\/v\d+$/, "");
  if (family(found) === family(JUDGMENT_FORMAT))
    return {
      code: "unsupported_format",
      message: `these are judgments in format ${found}; this fabench reads ${JUDGMENT_FORMAT} — judge again with this version`,
      file,
    };
  if (!found.startsWith("fabench-")) return null;
  return {
    code: "wrong_file_kind",
    message: `this is a fabench ${found} file, not a judgments file (${JUDGMENT_FORMAT}, written by \`fabench judge run\`)`,
    file,
  };
}

function notAJudgmentsFile(file: string, probed: number): ParsedJudgments {
  return {
    judgments: [],
    lines: [],
    tornBytes: 0,
    problems: [
      {
        code: "not_a_judgments_file",
        message: notOfKindMessage("judgments", "judgment", probed),
        file,
      },
    ],
  };
}
