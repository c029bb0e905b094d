import { share, type EpisodeMetric } from "./metric.ts";

export const requiredFactRecall: EpisodeMetric<number | null> = {
  id: "required_fact_recall",
  version: 3,
  description:
    "share of required facts for which some emitted fact is licensed (value by its field's kind, unit up to spelling, an allowed source the fact accepts)",
  compute: (t) => share(t.required, (e) => e.recalled),
};
