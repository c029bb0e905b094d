/**
 * `fabench judge agreement <a> <b>`: how far two judgments files (two judges, or one judge twice)
 * agree on the answers both rated — per dimension, quadratic-weighted kappa, Spearman's ρ, the
 * share rated exactly alike and each side's mean. The statistics live in src/judge; this reads the
 * files, refuses pairs that rated different answers, and prints.
 */
import { bundledPath, canonicalSha256, usageError } from "../../core/index.ts";
import {
  compareJudgments,
  judgmentsError,
  KAPPA_READING,
  readJudgmentsFiles,
  type Judgment,
  type JudgmentComparison,
  type JudgmentsFile,
} from "../../judge/index.ts";
import { EXIT, printJson, type CliIo } from "../shell/io.ts";
import { loadProtocol } from "../../world/index.ts";

export interface JudgeAgreementOptions {
  /** Exactly two judgments files. */
  readonly files: string[];
  readonly json?: boolean;
  /** The protocol both were judged under (default: the bundled preregistration). */
  readonly protocol?: string;
}

export async function judgeAgreement(options: JudgeAgreementOptions, io: CliIo): Promise<number> {
  if (options.files.length !== 2)
    throw usageError(
      "judge_agreement_files",
      `give exactly two judgments files to compare (got ${options.files.length})`,
    );
  const loaded = loadProtocol(options.protocol ?? bundledPath("manifests/preregistration.json"));
  const protocol = loaded.value;
  const protocolSha256 = canonicalSha256(protocol);
  const [first, second] = readJudgmentsFiles(options.files, protocol.judge, protocolSha256, (line) =>
    io.err(`${line}\n`),
  ) as [JudgmentsFile, JudgmentsFile];
  const comparison = compareJudgments(first, second, protocol.judge.dimensions);
  const refused = judgmentsError(comparison.problems);
  if (refused) throw refused;
  const document = {
    protocol: { id: protocol.protocol_id, sha256: protocolSha256 },
    files: [first, second].map(describeFile),
    episodes: comparison.episodes,
    dimensions: comparison.dimensions,
    reading: KAPPA_READING,
  };
  if (options.json) printJson(io, document);
  else io.out(render(document, comparison));
  return EXIT.ok;
}

type FileDescription = ReturnType<typeof describeFile>;

function describeFile(f: JudgmentsFile) {
  const statuses = { judged: 0, malformed: 0, not_judged: 0, error: 0 };
  for (const j of f.judgments) statuses[j.status] += 1;
  return {
    path: f.path,
    sha256: f.sha256,
    lines: f.judgments.length,
    torn_bytes: f.tornBytes,
    judges: judges(f.judgments),
    statuses,
  };
}

/** Distinct judges of a file, in order of first appearance, with their line counts. */
function judges(judgments: readonly Judgment[]) {
  const seen = new Map<
    string,
    { agent: string; model: string | null; reported_model: string | null; lines: number }
  >();
  for (const { judge } of judgments) {
    const key = JSON.stringify([judge.agent, judge.model, judge.reported_model]);
    const known = seen.get(key);
    if (known) known.lines += 1;
    else
      seen.set(key, {
        agent: judge.agent,
        model: judge.model,
        reported_model: judge.reported_model,
        lines: 1,
      });
  }
  return [...seen.values()];
}

const fixed = (v: number | null) => (v === null ? "–" : v.toFixed(3));
/** Three decimals with a real minus sign; rounded first, so −0.0004 prints as 0.000, not −0.000. */
const signed = (v: number | null) => {
  if (v === null) return "–";
  const rounded = Number(v.toFixed(3));
  return `${rounded < 0 ? "−" : " "}${Math.abs(rounded).toFixed(3)}`;
};

function render(
  d: {
    protocol: { id: string; sha256: string };
    files: FileDescription[];
    episodes: JudgmentComparison["episodes"];
    dimensions: JudgmentComparison["dimensions"];
  },
  comparison: JudgmentComparison,
): string {
  const e = d.episodes;
  const lines = [
    `judge agreement under protocol ${d.protocol.id} (${d.protocol.sha256.slice(0, 12)}…)`,
    ...d.files.map((f, i) => {
      const who = f.judges.map((j) => `${j.agent}${j.model ? ` ${j.model}` : ""}`).join(", ") || "no judge";
      const s = f.statuses;
      return `${i === 0 ? "first: " : "second:"} ${f.path} (${who}): ${s.judged} judged, ${s.malformed} malformed, ${s.not_judged} not judged, ${s.error} error`;
    }),
    `episodes: ${e.in_both} in both files, ${e.judged_in_both} judged in both (compared); ${e.judged_in_one_only} judged in only one; ${e.malformed_in_either} malformed in either; ${e.only_in_first} only in the first file, ${e.only_in_second} only in the second`,
    "",
  ];
  const rows = [
    ["dimension", "pairs", "κ_w", "Spearman ρ", "exact agreement", "mean first", "mean second"],
    ...comparison.dimensions.map((x) => [
      x.id,
      String(x.pairs),
      signed(x.weighted_kappa),
      signed(x.spearman),
      x.exact_agreement === null ? "–" : `${fixed(x.exact_agreement)} (${x.exact_agreements}/${x.pairs})`,
      fixed(x.mean_first),
      fixed(x.mean_second),
    ]),
  ];
  const widths = (rows[0] as string[]).map((_, c) => Math.max(...rows.map((r) => (r[c] as string).length)));
  for (const r of rows)
    lines.push(
      r
        .map((cell, c) => (c === 0 ? cell.padEnd(widths[c] as number) : cell.padStart(widths[c] as number)))
        .join("  ")
        .trimEnd(),
    );
  lines.push("");
  if (comparison.dimensions.some((x) => x.weighted_kappa === null || x.spearman === null))
    lines.push(
      "–: undefined — no pairs, or a judge gave every compared answer the same rating (a constant has no order to agree with, and chance alone would match it).",
    );
  lines.push(`How to read: ${KAPPA_READING}`);
  return `${lines.join("\n")}\n`;
}
