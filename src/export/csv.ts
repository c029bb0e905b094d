/**
 * One row per episode for a dataframe: the episode's identity, its outcome, every metric the
 * summary scored (tokens and tool calls among them), and who ran it (agent, model, router). RFC
 * 4180: CRLF line ends, a field holding a comma, quote, CR or LF is quoted with its quotes doubled;
 * an empty field is a missing value (null).
 */
import type { RunRecord } from "../conditions/runner/index.ts";
import { episodeKey } from "../core/index.ts";
import type { Summary } from "../summary/index.ts";

type Cell = string | number | boolean | null;

const IDENTITY = [
  "semantic_task_id",
  "answer_task_stratum",
  "language",
  "catalog_size",
  "condition",
  "trial",
] as const;
const OUTCOME = ["status", "error_code", "end_reason", "malformed_reason"] as const;
const WHO = ["agent", "model", "router_id", "router_config_sha256", "protocol_id"] as const;

export function csvField(value: Cell): string {
  if (value === null) return "";
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(cells: readonly Cell[]): string {
  return `${cells.map(csvField).join(",")}\r\n`;
}

/** The metric columns, in the order the summary first names them. */
export function metricColumns(summary: Pick<Summary, "episode_scores">): string[] {
  return [...new Set(summary.episode_scores.flatMap((e) => Object.keys(e.metrics)))];
}

/** The whole file: a header row, then one row per episode in the summary's order. */
export function episodesCsv(summary: Summary, records: readonly RunRecord[]): string {
  const metrics = metricColumns(summary);
  const byKey = new Map(records.map((r) => [episodeKey(r), r]));
  const run = summary.run;
  const lines = [csvLine([...IDENTITY, ...OUTCOME, ...metrics, ...WHO])];
  for (const e of summary.episode_scores) {
    const record = byKey.get(episodeKey(e));
    lines.push(
      csvLine([
        ...IDENTITY.map((c) => e[c]),
        e.status,
        e.error_code,
        record?.end_reason ?? null,
        e.malformed_reason,
        ...metrics.map((m) => e.metrics[m] ?? null),
        record?.metadata.agent ?? run.agent,
        record?.metadata.model ?? run.model,
        run.router_id,
        run.router_config_sha256,
        summary.protocol_id,
      ]),
    );
  }
  return lines.join("");
}
