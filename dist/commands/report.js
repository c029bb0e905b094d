/** `fabench report`: the summary as one static HTML file, or Markdown for a pull request. */
import { basename, dirname, join } from "node:path";
import { episodeKey, parseRunBytes } from "../conditions/runner/index.js";
import { readBytes, writeFileAtomic } from "../core/index.js";
import { renderHtml, renderMarkdown } from "../report/index.js";
import { loadSummaryProtocol, readCoverageStudy, readSummary } from "./inputs.js";
import { EXIT, printJson } from "./io.js";
export function report(options, io) {
    const summary = readSummary(options.summary);
    const protocol = loadSummaryProtocol(summary, options.summary, options.protocol, "report");
    const texts = new Map();
    for (const path of options.runs)
        for (const r of parseRunBytes(readBytes(path, "run"), path).records)
            texts.set(episodeKey(r), r.final_text);
    const extension = options.format === "md" ? "md" : "html";
    const out = options.out ??
        join(dirname(options.summary), `${basename(options.summary).replace(/\.summary\.json$|\.json$/, "")}.report.${extension}`);
    const coverage = options.coverage === undefined ? undefined : readCoverageStudy(options.coverage);
    writeFileAtomic(out, options.format === "md"
        ? renderMarkdown(summary)
        : renderHtml(summary, protocol, options.runs.length > 0 ? texts : undefined, coverage));
    if (options.json)
        printJson(io, { out, format: options.format, status: summary.gate.status });
    else
        io.out(`wrote ${out}\n`);
    return EXIT.ok;
}
