import { share } from "./metric.js";
export const provenanceAccuracy = {
    id: "provenance_accuracy",
    version: 1,
    description: "share of required facts for which some emitted fact of the key cites the required, allowed source",
    compute: (t) => share(t.required, (e) => e.sourceHit),
};
