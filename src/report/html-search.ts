/**
 * The report's tool-search section: beside the routers, what each search condition did — searches
 * per episode, the share of episodes with a search — with the evidence it gathered and the schema
 * tokens it sent, per catalog size and pooled. Shown only when a search condition was scored.
 */
import { conditionLabel } from "../gates/index.ts";
import { isSearchCondition, POOLED } from "../metrics/index.ts";
import type { Summary } from "../summary/index.ts";
import { cardTable, num } from "./html-kit.ts";
import { escape } from "./svg.ts";

export function searchSection(s: Summary): string {
  const selections = Object.entries(s.aggregates);
  if (!selections.some(([, conditions]) => Object.values(conditions).some((a) => isSearchCondition(a.means))))
    return "";
  const headers = [
    "condition",
    "catalog",
    "episodes",
    "searches / episode",
    "episodes with a search",
    "required evidence coverage",
    "required fact recall",
    "tool-schema tokens",
  ];
  // Pooled first, then each catalog size, as the gate tables are ordered.
  const ordered = [
    ...selections.filter(([selection]) => selection === POOLED),
    ...selections.filter(([selection]) => selection !== POOLED),
  ];
  const rows = ordered.flatMap(([selection, conditions]) =>
    Object.entries(conditions).map(([condition, a]) => [
      escape(conditionLabel(s.gate, condition)),
      escape(selection),
      String(a.episodes),
      // A router cannot search: – rather than a 0 that reads as "searched nothing".
      isSearchCondition(a.means) ? num(a.means["search_count"], 2) : "–",
      isSearchCondition(a.means) ? num(a.means["searched"], 3) : "–",
      num(a.means["required_evidence_coverage"], 3),
      num(a.means["required_fact_recall"], 3),
      num(a.means["tool_schema_tokens"], 0),
    ]),
  );
  return `<h2 id="search">Tool search beside the routers</h2><p class="muted">A search condition starts with a search tool and no other tool schema; each tool a search returns is callable from the next turn on. Searches per episode and the share of episodes with at least one search, beside the evidence gathered and the tool-schema tokens sent (the search tool's schema plus every loaded one). Search conditions are not in the preregistration: their verdicts are exploratory.</p>${cardTable(headers, rows)}`;
}
