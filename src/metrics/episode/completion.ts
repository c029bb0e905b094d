import type { EpisodeMetric } from "./metric.ts";

export const mandatoryFieldCompletion: EpisodeMetric<boolean> = {
  id: "mandatory_field_completion",
  version: 2,
  description:
    "every mandatory answer field is recalled (every required fact of that key licensed); false for a malformed envelope",
  compute: (t) =>
    t.valid &&
    t.mandatory.every((key) => {
      const facts = t.required.filter((e) => e.fact.key === key);
      return facts.length > 0 && facts.every((e) => e.recalled);
    }),
};

export const envelopeValid: EpisodeMetric<boolean> = {
  id: "envelope_valid",
  version: 1,
  description: "the final text parsed as exactly one well-formed envelope",
  compute: (t) => t.valid,
};

export const sourceListValid: EpisodeMetric<boolean> = {
  id: "source_list_valid",
  version: 3,
  description:
    "every listed source is allowed and every licensed fact's cited source is listed (reported, not gated)",
  compute: (t) => {
    if (!t.valid || !t.sources.every((s) => t.allowed.has(s))) return false;
    const listed = new Set(t.sources);
    return t.required.every((e) => e.licensedSources.every((s) => listed.has(s)));
  },
};
