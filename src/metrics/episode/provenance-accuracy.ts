import { share, type EpisodeMetric } from "./metric.ts";

export const provenanceAccuracy: EpisodeMetric<number | null> = {
  id: "provenance_accuracy",
  version: 2,
  description:
    "share of required facts for which some emitted fact of the key cites an allowed source the fact accepts (its own, one that also holds the value, or one a derived value is computed from)",
  compute: (t) => share(t.required, (e) => e.sourceHit),
};
