/** The condition manifest and the routing profile as text, for `conditions show` and `conditions profile`. */
import type { ConditionManifest } from "./manifest-schema.ts";
import type { RoutingProfile } from "./profile.ts";

/** One task × catalog entry: its required routes' ranks and what each condition shows at each stage. */
export function renderManifestEntry(
  manifest: ConditionManifest,
  entry: ConditionManifest["entries"][number],
): string {
  const lines = [
    `${entry.semantic_task_id} — catalog ${entry.catalog_size}, router ${manifest.router.id}`,
    "required route ranks (1 = best):",
  ];
  for (const [route, rank] of Object.entries(entry.required_route_ranks))
    lines.push(`  ${route.padEnd(24)} ${rank}`);
  for (const [condition, { stages }] of Object.entries(entry.conditions)) {
    lines.push(`${condition}:`);
    stages.forEach((stage, i) => {
      const shown =
        stage === "all" ? `all ${entry.catalog_size} routes` : `${stage.length} routes: ${stage.join(", ")}`;
      lines.push(`  stage ${i + 1}: ${shown}`);
    });
  }
  return `${lines.join("\n")}\n`;
}

/** Per condition and catalog size, the share of required routes each first stage shows, and how often a hard negative wins. */
export function renderRoutingProfile(p: RoutingProfile): string {
  const f = (x: number) => x.toFixed(3);
  const lines = [
    `router ${p.router}: required routes visible in each condition's first stage (share of routes / share of tasks with all of them)`,
    "",
  ];
  const pooled = p.coverage.filter((r) => r.scope === "all");
  const sizes = [...new Set(pooled.map((r) => r.catalog_size))];
  lines.push(`${"condition".padEnd(16)}${sizes.map((s) => `catalog ${s}`.padStart(20)).join("")}`);
  for (const condition of [...new Set(pooled.map((r) => r.condition))])
    lines.push(
      `${condition.padEnd(16)}${sizes
        .map((s) => {
          const r = pooled.find((x) => x.condition === condition && x.catalog_size === s);
          return r
            ? `${f(r.required_route_coverage)} / ${f(r.all_required_visible)}`.padStart(20)
            : "".padStart(20);
        })
        .join("")}`,
    );
  lines.push("", "a route that is not required ranks above a required one (share of tasks):");
  for (const r of p.outranked)
    lines.push(
      `  catalog ${String(r.catalog_size).padEnd(5)} ${r.scope === "all" ? "all tasks" : `${r.scope} ${r.group}`}`.padEnd(
        64,
      ) + f(r.outranked),
    );
  return `${lines.join("\n")}\n`;
}
