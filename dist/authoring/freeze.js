export const IDENTITY_FREEZE_FORMAT = "fabench-identity-freeze/v1";
/** Only a passing report can be frozen; the caller checks `report.ok` first. */
export function buildIdentityFreeze(input) {
    const { plan, report } = input;
    if (!report.ok || report.identity_sha256 === null || report.query_content_sha256 === null)
        throw new Error("buildIdentityFreeze needs a passing identity report");
    return {
        format: IDENTITY_FREEZE_FORMAT,
        protocol_id: plan.protocol_id,
        protocol_sha256: plan.protocol_sha256,
        plan_slots_sha256: plan.slots_sha256,
        plan_file_sha256: input.planFileSha256,
        corpus_file_sha256: input.corpusFileSha256,
        identity_sha256: report.identity_sha256,
        query_content_sha256: report.query_content_sha256,
        row_count: report.row_count,
        normalized_query_count: report.normalized_query_count,
    };
}
