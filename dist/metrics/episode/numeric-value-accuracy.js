import { share } from "./metric.js";
export const numericValueAccuracy = {
    id: "numeric_value_accuracy",
    version: 1,
    description: "share of numeric required facts whose value some emitted fact of the key matches (after unit conversion, within tolerance); null without numeric facts",
    compute: (t) => share(t.required.filter((e) => e.numeric), (e) => e.valueHit),
};
