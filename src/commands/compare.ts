/** `fabench compare A B`: reads two summaries, their protocol and the condition manifests, and writes the comparison. */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { PILOT_FILES } from "../authoring/index.ts";
import { checkOutput, usageError, writeFileAtomic } from "../core/index.ts";
import {
  checkComparable,
  compareSummaries,
  renderComparison,
  renderComparisonHtml,
  type NamedManifest,
} from "../compare/index.ts";
import { POOLED } from "../metrics/index.ts";
import { loadConditionManifest, loadSummaryProtocol } from "../world/index.ts";
import { readSummary } from "./shell/inputs.ts";
import { EXIT, printJson, type CliIo } from "./shell/io.ts";

export interface CompareOptions {
  readonly a: string;
  readonly b: string;
  /** The HTML page to write. */
  readonly out?: string;
  /**
   * Condition manifests given with --manifest (a list); a single path is the pilot's own manifest
   * that --pilot filled in — used when it is one of the runs', skipped otherwise.
   */
  readonly manifest: string | readonly string[];
  /** Which catalog size's tables the text shows (default: pooled). */
  readonly catalogSize?: number;
  readonly protocol: string;
  /** `--pilot DIR`: its own condition manifest is a candidate too (the run made without --manifest). */
  readonly pilot?: string;
  readonly json: boolean;
}

/**
 * The manifests to match against the two summaries: those given with --manifest (refused when they
 * match neither), and the pilot's own (skipped when it matches neither), each path once.
 */
function manifestCandidates(options: CompareOptions): Array<{ path: string; given: boolean }> {
  const given = typeof options.manifest === "string" ? [] : [...options.manifest];
  const defaults = [
    ...(typeof options.manifest === "string" ? [options.manifest] : []),
    ...(options.pilot === undefined ? [] : [join(options.pilot, PILOT_FILES.manifest)]),
  ].filter((path) => existsSync(path) && !given.some((g) => resolve(g) === resolve(path)));
  return [
    ...given.map((path) => ({ path, given: true })),
    ...[...new Set(defaults)].map((path) => ({ path, given: false })),
  ];
}

export function compare(options: CompareOptions, io: CliIo): number {
  const manifestPaths = manifestCandidates(options);
  if (options.out !== undefined)
    checkOutput(options.out, {
      inputs: [options.a, options.b, options.protocol, ...manifestPaths.map((m) => m.path)],
    });
  const a = { path: options.a, summary: readSummary(options.a) };
  const b = { path: options.b, summary: readSummary(options.b) };
  // What differs between the two worlds is said before the protocol is looked for: a protocol
  // mismatch is then one of the differences, not a puzzle about --protocol.
  checkComparable(a, b);
  const sizes = a.summary.run.catalogs.map((c) => c.size);
  if (options.catalogSize !== undefined && !sizes.includes(options.catalogSize))
    throw usageError(
      "unknown_catalog_size",
      `--catalog-size ${options.catalogSize}: the runs have catalog sizes ${sizes.join(", ")}`,
    );
  const protocol = loadSummaryProtocol(a.summary, options.a, options.protocol, "compare");
  const manifests: NamedManifest[] = manifestPaths.map(({ path, given }) => ({
    path,
    manifest: loadConditionManifest(path).value,
    given,
  }));
  const comparison = compareSummaries({ a, b, protocol, manifests });
  if (options.out !== undefined) writeFileAtomic(options.out, renderComparisonHtml(comparison));
  if (options.json) printJson(io, comparison);
  else {
    io.out(
      renderComparison(comparison, options.catalogSize === undefined ? POOLED : String(options.catalogSize)),
    );
    if (options.out !== undefined) io.out(`wrote ${options.out}\n`);
  }
  return EXIT.ok;
}
