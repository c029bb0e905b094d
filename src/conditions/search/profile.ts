/**
 * The search profile: before spending on a model, how well each portable search finds what a task
 * needs when searching with the task's request (`queryFromRequest`) — the search counterpart of the
 * router profile. recall@k = mean over tasks of (required routes among the first k hits) ÷
 * (required routes); `all_found` = share of tasks with every required route among them. Pure.
 */
import type { Task } from "../../authoring/index.ts";
import type { Endpoint } from "../catalog/index.ts";
import { bm25Search } from "./bm25.ts";
import { queryFromRequest } from "./query.ts";
import { regexSearch } from "./regex.ts";
import type { CatalogSearch, SearchEngine, SearchRefusal } from "./types.ts";

export interface SearchProfileRow {
  readonly engine: SearchEngine;
  readonly catalog_size: number;
  readonly scope: "all" | "stratum" | "language";
  readonly group: string;
  readonly tasks: number;
  readonly recall: number;
  readonly all_found: number;
  /** Tasks whose query the search refused (counted as finding nothing). */
  readonly refused: number;
  /** The refusals by code (`empty_query`: the request had nothing to search with). */
  readonly refused_by: Readonly<Partial<Record<SearchRefusal, number>>>;
}

export interface SearchProfile {
  readonly k: number;
  readonly engines: readonly SearchEngine[];
  readonly rows: readonly SearchProfileRow[];
}

export type ProfileTask = Pick<
  Task,
  "semantic_task_id" | "answer_task_stratum" | "language" | "query" | "required_routes"
>;

interface TaskResult {
  readonly task: ProfileTask;
  readonly recall: number;
  readonly refused: SearchRefusal | null;
}

function taskResult(search: CatalogSearch, task: ProfileTask, k: number): TaskResult {
  const outcome = search.search(queryFromRequest(task, search.engine), k);
  const found = new Set(outcome.ok ? outcome.hits.map((h) => h.route_id) : []);
  const required = task.required_routes;
  const recall = required.length === 0 ? 1 : required.filter((r) => found.has(r)).length / required.length;
  return { task, recall, refused: outcome.ok ? null : outcome.code };
}

const mean = (xs: readonly number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

function countCodes(results: readonly TaskResult[]): Partial<Record<SearchRefusal, number>> {
  const counts: Partial<Record<SearchRefusal, number>> = {};
  for (const { refused } of results) if (refused !== null) counts[refused] = (counts[refused] ?? 0) + 1;
  return counts;
}

function rowsOf(engine: SearchEngine, size: number, results: readonly TaskResult[]): SearchProfileRow[] {
  const groupsBy = (scope: "stratum" | "language") => {
    const key = (r: TaskResult) => (scope === "stratum" ? r.task.answer_task_stratum : r.task.language);
    return [...new Set(results.map(key))].map((group) => ({
      scope,
      group,
      members: results.filter((r) => key(r) === group),
    }));
  };
  const groups = [
    { scope: "all" as const, group: "all", members: [...results] },
    ...groupsBy("stratum"),
    ...groupsBy("language"),
  ];
  return groups.map((g) => ({
    engine,
    catalog_size: size,
    scope: g.scope,
    group: g.group,
    tasks: g.members.length,
    recall: mean(g.members.map((m) => m.recall)),
    all_found: mean(g.members.map((m) => (m.recall === 1 ? 1 : 0))),
    refused: g.members.filter((m) => m.refused !== null).length,
    refused_by: countCodes(g.members),
  }));
}

/** Rows per engine, then catalog size ascending; strata and languages in the order tasks first name them. */
export function searchProfile(input: {
  readonly tasks: readonly ProfileTask[];
  readonly catalogs: ReadonlyArray<{ readonly size: number; readonly endpoints: readonly Endpoint[] }>;
  readonly k: number;
  readonly engines?: readonly SearchEngine[];
}): SearchProfile {
  const engines = input.engines ?? (["bm25", "regex"] as const);
  const catalogs = [...input.catalogs].sort((a, b) => a.size - b.size);
  const rows = engines.flatMap((engine) =>
    catalogs.flatMap(({ size, endpoints }) => {
      const search = engine === "bm25" ? bm25Search(endpoints) : regexSearch(endpoints);
      return rowsOf(
        engine,
        size,
        input.tasks.map((t) => taskResult(search, t, input.k)),
      );
    }),
  );
  return { k: input.k, engines: [...engines], rows };
}

/** One table: a row per group, a column per engine × catalog size, cells `recall / all found`. */
export function renderSearchProfile(p: SearchProfile): string {
  const f = (x: number) => x.toFixed(3);
  const columns = [...new Map(p.rows.map((r) => [`${r.engine} ${r.catalog_size}`, r])).values()];
  const groups = [...new Map(p.rows.map((r) => [`${r.scope}\u0000${r.group}`, r])).values()];
  const label = (r: SearchProfileRow) => (r.scope === "all" ? "all tasks" : `${r.scope} ${r.group}`);
  const width = Math.max(12, ...groups.map((g) => label(g).length + 2));
  const lines = [
    `search profile: required routes among the first ${p.k} hits when searching with each task's request (recall@${p.k} / share of tasks with all of them)`,
    "",
    `${"".padEnd(width)}${columns.map((c) => `${c.engine} @ ${c.catalog_size}`.padStart(18)).join("")}`,
  ];
  for (const g of groups) {
    const cells = columns.map((c) => {
      const r = p.rows.find(
        (x) =>
          x.engine === c.engine &&
          x.catalog_size === c.catalog_size &&
          x.scope === g.scope &&
          x.group === g.group,
      );
      return (r ? `${f(r.recall)} / ${f(r.all_found)}` : "").padStart(18);
    });
    lines.push(`${label(g).padEnd(width)}${cells.join("")}`);
  }
  const refused = p.rows.filter((r) => r.scope === "all" && r.refused > 0);
  if (refused.length > 0)
    lines.push(
      "",
      ...refused.map(
        (r) =>
          `${r.engine} @ ${r.catalog_size}: ${r.refused} task queries refused, counted as finding nothing (${Object.entries(
            r.refused_by,
          )
            .map(([code, n]) => `${code} ${n}`)
            .join(", ")})`,
      ),
    );
  return `${lines.join("\n")}\n`;
}
