import { share } from "./metric.js";
export const requiredFactRecall = {
    id: "required_fact_recall",
    version: 1,
    description: "share of required facts for which some emitted fact is licensed (value, unit and source all right)",
    compute: (t) => share(t.required, (e) => e.recalled),
};
