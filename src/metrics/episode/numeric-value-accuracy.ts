import { share, type EpisodeMetric } from "./metric.ts";

export const numericValueAccuracy: EpisodeMetric<number | null> = {
  id: "numeric_value_accuracy",
  version: 2,
  description:
    "share of numeric required facts whose value some emitted fact of the key matches (converted from its unit to the gold unit, as a difference for a difference field, within tolerance); null without numeric facts",
  compute: (t) =>
    share(
      t.required.filter((e) => e.numeric),
      (e) => e.valueHit,
    ),
};
