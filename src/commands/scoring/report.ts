/** `fabench report`: the summary as one static HTML file, or Markdown for a pull request. */
import { basename, dirname, join } from "node:path";
import { episodeKey } from "../../conditions/runner/index.ts";
import { checkOutput, inputError, sha256Hex, writeFileAtomic } from "../../core/index.ts";
import { parseOnce, type Summary } from "../../summary/index.ts";
import { type EpisodeRecord, renderHtml, renderMarkdown } from "../../report/index.ts";
import { readCoverageStudy, readSummary } from "../shell/inputs.ts";
import { EXIT, printJson, type CliIo } from "../shell/io.ts";
import { parseRunFile, readRunBytes } from "../shell/run-files.ts";
import { loadSummaryProtocol } from "../../world/index.ts";
import { readEpisodeSources } from "./report-sources.ts";

export interface ReportOptions {
  readonly summary: string;
  readonly runs: readonly string[];
  readonly out?: string;
  readonly format: "html" | "md";
  /** A `fabench simulate coverage --json` output, for the coverage footnote. */
  readonly coverage?: string;
  /** The protocol the summary was scored under (its gate gives the plot's margins). */
  readonly protocol: string;
  readonly json: boolean;
  /** `--allow-live-file`: show the answers of a run file a live writer holds (a snapshot). */
  readonly allowLiveFile?: boolean;
  /** The corpus the summary was scored from (`--corpus` or `--pilot`); absent: the bundled one if it matches. */
  readonly corpus?: string;
  /** The condition manifest the run replayed (`--manifest` or `--pilot`); absent: the bundled one if it matches. */
  readonly manifest?: string;
}

export function report(options: ReportOptions, io: CliIo): number {
  parseOnce();
  const extension = options.format === "md" ? "md" : "html";
  const out =
    options.out ??
    join(
      dirname(options.summary),
      `${basename(options.summary).replace(/\.summary\.json$|\.json$/, "")}.report.${extension}`,
    );
  checkOutput(out, {
    inputs: [
      options.summary,
      ...options.runs,
      options.protocol,
      options.coverage,
      options.corpus,
      options.manifest,
    ],
  });
  const summary = readSummary(options.summary);
  const protocol = loadSummaryProtocol(summary, options.summary, options.protocol, "report");
  const records = new Map<string, EpisodeRecord>();
  for (const path of options.runs) {
    const bytes = readRunBytes(path, options, io);
    checkScoredFrom(summary, options.summary, path, sha256Hex(bytes));
    for (const r of parseRunFile(bytes, path, io).records) records.set(episodeKey(r), r);
  }
  const coverage = options.coverage === undefined ? undefined : readCoverageStudy(options.coverage);
  const paths = {
    ...(options.corpus === undefined ? {} : { corpus: options.corpus }),
    ...(options.manifest === undefined ? {} : { manifest: options.manifest }),
  };
  // Markdown stays the summary's tables (the episode view is the HTML page's), but a corpus or
  // manifest named for it is still checked: a wrong file is refused whatever the format.
  const sources =
    options.format === "html" || Object.keys(paths).length > 0
      ? readEpisodeSources(summary, options.summary, paths, options.runs.length > 0 ? records : undefined)
      : undefined;
  writeFileAtomic(
    out,
    options.format === "md" ? renderMarkdown(summary) : renderHtml(summary, protocol, sources, coverage),
  );
  if (options.json) printJson(io, { out, format: options.format, status: summary.gate.status });
  else io.out(`wrote ${out}\n`);
  return EXIT.ok;
}

/** A run file's answers may be shown only beside the scores made from it: its hash must be one the summary records. */
function checkScoredFrom(summary: Summary, summaryPath: string, path: string, sha256: string): void {
  if (summary.run_files.some((f) => f.sha256 === sha256)) return;
  const scored = summary.run_files.map((f) => `${f.path} (${f.sha256.slice(0, 12)}…)`).join(", ");
  throw inputError(
    "report",
    "runs_not_scored_in_summary",
    `its hash ${sha256.slice(0, 12)}… is not one of the run files ${summaryPath} was scored from (${scored}); pass those with --runs`,
    { file: path },
  );
}
