import { share, type EpisodeMetric } from "./metric.ts";

export const unitAccuracy: EpisodeMetric<number | null> = {
  id: "unit_accuracy",
  version: 2,
  description:
    "share of unit-bearing required facts for which some emitted fact of the key gives an accepted unit, up to spelling through the unit table (a convertible but unaccepted unit is a miss); null without such facts",
  compute: (t) =>
    share(
      t.required.filter((e) => e.unitBearing),
      (e) => e.unitHit,
    ),
};
