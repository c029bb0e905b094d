import type { EpisodeMetric } from "./metric.ts";

export const unsupportedFactCount: EpisodeMetric<number> = {
  id: "unsupported_fact_count",
  version: 2,
  description: "emitted facts that are not licensed for the required fact of their key",
  compute: (t) => t.emitted.filter((f) => !f.licensed).length,
};

export const unsupportedFactRate: EpisodeMetric<number> = {
  id: "unsupported_fact_rate",
  version: 2,
  description: "unsupported facts / emitted facts; 0 when nothing was emitted",
  compute: (t) => (t.emitted.length === 0 ? 0 : unsupportedFactCount.compute(t) / t.emitted.length),
};

export const duplicateFactCount: EpisodeMetric<number> = {
  id: "duplicate_fact_count",
  version: 2,
  description:
    "licensed facts repeating a required fact an earlier fact already licensed (supported, never counted twice)",
  compute: (t) => t.emitted.filter((f) => f.duplicate).length,
};
