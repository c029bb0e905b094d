/**
 * The report's gate section: the pooled gate table, one per catalog size, and the notes on the
 * intervals shown in them.
 */
import {
  baselineWarning,
  checkIntervals,
  checkRule,
  comparesToBaseline,
  conditionsNotRun,
  notPreregisteredConditions,
  notRunReason,
} from "../gates/index.ts";
import { formatInterval, intervalNotes, type ShownInterval } from "../metrics/index.ts";
import type { Summary } from "../summary/index.ts";
import { num, wide } from "./html-kit.ts";
import { escape } from "./svg.ts";

/** What the gate table needs besides the verdicts: which conditions were not run, and whether the baseline failed. */
interface GateContext {
  readonly method: string;
  readonly notRun: readonly string[];
  /** Conditions the preregistration does not name: their column heads say so. */
  readonly unnamed: readonly string[];
  readonly baselineFailed: boolean;
  readonly shown: ShownInterval[];
}

/**
 * One gate table; the shown intervals are collected for the notes under the tables. Every cell
 * carries its column's name (`data-label`) for the phone layout, and each verdict cell its
 * condition (`data-condition`). A pass of a delta check, or a verdict, beside a failed baseline is
 * marked ⚠ in amber, never a bare green ✓.
 */
function gateTable(conditions: Summary["gate"]["conditions"], id: string, context: GateContext): string {
  const { method, notRun, unnamed, baselineFailed, shown } = context;
  const names = Object.keys(conditions);
  const checks = Object.keys(Object.values(conditions)[0]?.checks ?? {});
  const tag = (c: string) => (unnamed.includes(c) ? ' <span class="pilot">not preregistered</span>' : "");
  const head = `<tr class="cols"><th>check</th><th>needs</th>${names.map((c) => `<th>${escape(c)}${tag(c)}</th>`).join("")}</tr>`;
  const body = checks.map((name) => {
    const first = Object.values(conditions)[0]?.checks[name];
    const cells = Object.entries(conditions).map(([condition, v]) => {
      const label = ` data-label="${escape(condition)}"`;
      const c = v.checks[name];
      if (!c) return `<td${label}>–</td>`;
      if (notRun.includes(condition)) return `<td class="muted"${label}>not run</td>`;
      const { shows } = checkRule(c);
      const { ci95, gate } = checkIntervals(c);
      shown.push(...[ci95, gate].filter((x) => x !== undefined));
      const value = shows === "level" || shows === "total" ? c.value : c.delta;
      const ci = ci95 ? ` <span class="muted">${escape(formatInterval(ci95, (x) => num(x)))}</span>` : "";
      const gateCi = gate
        ? ` <span class="muted">${escape(method)} ${escape(formatInterval(gate, (x) => num(x)))}</span>`
        : "";
      const caution = c.passed && baselineFailed && comparesToBaseline(c);
      const mark = caution
        ? `<td class="caution" title="passes against a failed baseline"${label}>⚠ ✓`
        : `<td class="${c.passed ? "ok" : "no"}"${label}>${c.passed ? "✓" : "✗"}`;
      return `${mark} ${num(value)}${ci}${gateCi}</td>`;
    });
    return `<tr><td>${escape(first?.metric ?? name)}</td><td data-label="needs">${first ? escape(checkRule(first).need) : ""}</td>${cells.join("")}</tr>`;
  });
  const verdictRow = (title: string, passed: (v: ConditionVerdict) => boolean) =>
    `<tr class="verdicts"><th>${title}</th><th></th>${Object.entries(conditions)
      .map(([condition, v]) => {
        const [cls, text] = notRun.includes(condition)
          ? ["no", "not run"]
          : passed(v)
            ? baselineFailed
              ? ["caution", "⚠ pass"]
              : ["ok", "pass"]
            : ["no", "fail"];
        return `<th class="cond-verdict ${cls}" data-condition="${escape(condition)}" data-label="${escape(condition)}">${text}</th>`;
      })
      .join("")}</tr>`;
  const verdicts = `${verdictRow("point-estimate verdict", (v) => v.passed)}${verdictRow("interval verdict", (v) => v.interval_passed)}`;
  return wide(`<table class="gate cards" id="${id}">${head}${body.join("")}${verdicts}</table>`);
}

type ConditionVerdict = Summary["gate"]["conditions"][string];

export function gateSection(s: Summary): string {
  const method = s.gate.interval_method;
  const warning = baselineWarning(s.gate);
  const notRun = notRunReason(s.gate);
  const context: GateContext = {
    method,
    notRun: conditionsNotRun(s.gate),
    unnamed: notPreregisteredConditions(s.gate),
    baselineFailed: warning !== null,
    shown: [],
  };
  const pooled = gateTable(s.gate.conditions, "gate-pooled", context);
  const perCatalog = Object.entries(s.gate.per_catalog)
    .map(
      ([size, conditions]) =>
        `<details><summary>catalog size ${escape(size)}</summary>${gateTable(conditions, `gate-${escape(size)}`, context)}</details>`,
    )
    .join("");
  const notes = intervalNotes(context.shown)
    .map((n) => `<li>${escape(n)}</li>`)
    .join("");
  const said = [
    warning ? `<p class="warn">⚠ ${escape(warning)}: a ⚠ marks each pass that leans on it.</p>` : "",
    notRun ? `<p class="no">${escape(notRun)}: a condition not run cannot pass.</p>` : "",
  ].join("");
  return `<h2 id="gate">Gate, pooled over catalog sizes</h2><p class="muted">Each cell: the paired delta against FULL (or the level, ratio or total the check uses), with its preregistered ${escape(s.bootstrap.interval)} ${Math.round(s.bootstrap.confidence * 100)} % interval and the ${escape(method)} interval the interval verdict uses, both shown within what the metric can be.</p>${said}${pooled}${notes ? `<ul id="interval-notes" class="muted">${notes}</ul>` : ""}${perCatalog}`;
}

type Check = Summary["gate"]["conditions"][string]["checks"][string];

/** A failed check in a few words: its metric, the value as the gate table shows it, what it needs, where it failed. */
function failedCheckText(c: Check, where: readonly string[]): string {
  const { shows, need } = checkRule(c);
  // As in the gate table: a level or total is the value itself, the rest the delta (or ratio) the check reads.
  const value = shows === "level" || shows === "total" ? num(c.value) : `${shows} ${num(c.delta)}`;
  return `<code>${escape(c.metric)}</code> ${escape(value)}, needs ${escape(need)} (${escape(where.join(", "))})`;
}

/**
 * Beside a FAIL (or a BLOCKED that would fail on the numbers): each failing condition's failed
 * checks, each with where it failed — pooled, and at which catalog sizes.
 */
export function failedChecks(s: Summary): string {
  const g = s.gate;
  if (g.status !== "FAIL" && !(g.status === "BLOCKED" && !g.any_deployable_condition_passed)) return "";
  const lines = Object.entries(g.conditions)
    .filter(([, v]) => !v.passed)
    .map(([condition, v]) => {
      const failed = Object.entries(v.checks).flatMap(([name, pooled]) => {
        const sizes = Object.entries(g.per_catalog).flatMap(([size, c]) => {
          const check = c[condition]?.checks[name];
          return check?.passed === false ? [{ size, check }] : [];
        });
        const where = [...(pooled.passed ? [] : ["pooled"]), ...sizes.map((z) => `catalog ${z.size}`)];
        // The value shown is the pooled one, or the first catalog's where only a catalog failed.
        const shown = pooled.passed ? sizes[0]?.check : pooled;
        return shown === undefined ? [] : [failedCheckText(shown, where)];
      });
      return `<li><strong>${escape(condition)}</strong>: ${failed.join("; ") || "no check failed (a condition not run)"}</li>`;
    });
  if (lines.length === 0) return "";
  return `<div id="failed-checks"><p>Checks that failed${g.status === "BLOCKED" ? " (on the numbers)" : ""}:</p><ul>${lines.join("")}</ul></div>`;
}
