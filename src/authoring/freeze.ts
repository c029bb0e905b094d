/** The identity freeze manifest: what a later stage checks before it trusts an authored corpus. */
import type { IdentityReport } from "./identity.ts";
import type { Plan } from "./plan.ts";

export const IDENTITY_FREEZE_FORMAT = "fabench-identity-freeze/v1";

export interface IdentityFreeze {
  readonly format: typeof IDENTITY_FREEZE_FORMAT;
  readonly protocol_id: string;
  readonly protocol_sha256: string;
  readonly plan_slots_sha256: string;
  readonly plan_file_sha256: string;
  readonly corpus_file_sha256: string;
  readonly identity_sha256: string;
  readonly query_content_sha256: string;
  readonly row_count: number;
  readonly normalized_query_count: number;
}

/** Only a passing report can be frozen; the caller checks `report.ok` first. */
export function buildIdentityFreeze(input: {
  plan: Plan;
  planFileSha256: string;
  corpusFileSha256: string;
  report: IdentityReport;
}): IdentityFreeze {
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
