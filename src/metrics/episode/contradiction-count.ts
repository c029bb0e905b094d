import type { EpisodeMetric } from "./metric.ts";

export const contradictionCount: EpisodeMetric<number> = {
  id: "contradiction_count",
  version: 2,
  description:
    "emitted facts whose key and value match a forbidden fact (by the same rules as required facts: the field's kind, tolerance, unit conversion; source ignored)",
  compute: (t) => t.emitted.filter((f) => f.contradicts).length,
};
