/** The sensitivity table as text: the table, then per condition × catalog size, the companions and why each metric. */
import type { ReaderSection } from "./reader.ts";
import type { Compared, SensitivityTable } from "./table.ts";

function value(v: number | null, total: boolean): string {
  if (v === null) return "n/a";
  return total ? String(v) : v.toFixed(3);
}

function signed(v: number | null, total: boolean): string {
  if (v === null) return "n/a";
  const text = value(Math.abs(v), total);
  return v < 0 ? `-${text}` : `+${text}`;
}

function pair(c: Compared, total: boolean): string {
  return `${value(c.reference, total)} → ${value(c.probe, total)}`;
}

/** Left-aligned columns two spaces apart (every cell is in the Basic Multilingual Plane, so length is width). */
function columns(rows: readonly (readonly string[])[]): string {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

export function renderSensitivity(table: SensitivityTable): string {
  const head = `Probe sensitivity: the reference agent and ${table.rows.length} probe agents under ${table.conditions.join(" and ")} at ${table.catalog_sizes.join(" and ")} endpoints (${table.tasks} tasks, ${table.episodes_per_agent} episodes per agent). A probe is caught when its metric falls at least ${table.catch_margin} below the reference agent's, or, for unauthorized destructive executions, when it has any.`;
  const main = columns([
    ["probe", "metric", "reference", "probe", "difference", "caught"],
    ...table.rows.map((r) => {
      const total = r.aggregation === "total";
      return [
        r.probe_agent,
        `${r.metric} (${r.aggregation})`,
        value(r.reference, total),
        value(r.probe, total),
        signed(r.difference, total),
        r.caught ? "yes" : "no",
      ];
    }),
  ]);
  const cellNames = (table.rows[0]?.cells ?? []).map((c) => `${c.condition} @${c.catalog_size}`);
  const cells = columns([
    ["probe", ...cellNames],
    ...table.rows.map((r) => [r.probe_agent, ...r.cells.map((c) => pair(c, r.aggregation === "total"))]),
  ]);
  const companions = table.rows.flatMap((r) =>
    r.companion === null
      ? []
      : [
          `  ${r.probe_agent}: ${r.companion.metric} (${r.companion.aggregation}) ${pair(r.companion, r.companion.aggregation === "total")}`,
        ],
  );
  const why = table.rows.map((r) => `  ${r.probe_agent}: ${r.metric} — ${r.why}`);
  return [
    head,
    "",
    main,
    "",
    "By condition and catalog size (reference → probe):",
    cells,
    "",
    "Beside (not deciding; reference → probe):",
    ...companions,
    "",
    "Why each metric:",
    ...why,
    "",
    ...renderReader(table.reader),
  ].join("\n");
}

/** The careful reader's recall beside the reference agent's, per condition, by stratum and language; then the findings. */
function renderReader(section: ReaderSection): string[] {
  const cells = columns([
    ["condition", "by", "group", "episodes", "reference", section.agent, "difference"],
    ...section.cells.map((c) => [
      c.condition,
      c.group,
      c.name,
      String(c.episodes),
      value(c.reference, false),
      value(c.reader, false),
      signed(c.difference, false),
    ]),
  ]);
  const verdict = section.sound
    ? [`Sound: the ${section.agent} stays ${section.rule}.`]
    : [
        `Findings (${section.findings.length}): the ${section.agent} is not ${section.rule} here:`,
        ...section.findings.map((f) => `  ${f.condition} ${f.stratum}: ${f.message}`),
      ];
  return [
    `The ${section.agent} (gold-free: it sees only the form, the tool schemas and the replies): ${section.metric}, reference → ${section.agent}.`,
    cells,
    "",
    ...verdict,
    "",
  ];
}
