import { share } from "./metric.js";
export const unitAccuracy = {
    id: "unit_accuracy",
    version: 1,
    description: "share of unit-bearing required facts for which some emitted fact of the key gives an accepted unit label; null without such facts",
    compute: (t) => share(t.required.filter((e) => e.unitBearing), (e) => e.unitHit),
};
