/**
 * The rules a public record obeys (§7), each reporting with its own code, so one pass lists every
 * problem of a record. Records are read as unchecked JSON: a public file is checked exactly for
 * what it is allowed to hold, which a schema that stops at the first unknown field cannot report.
 * - Fields: exactly the allowed set at every level, and no forbidden name at any depth.
 * - Identity and lifecycle: ids and timestamps, `failed` exactly when there is an error.
 * - Metadata: the policy's id, an approved API base URL, a public lane, real digests and limits.
 * - Selection, discovery, grounding, parameterization and call: values that can all be true at once.
 */
import { sha256Hex } from "../core/index.ts";
import { isObject, type Json } from "./across-fields.ts";
import {
  forbiddenFieldSet,
  isSafePublicString,
  normalizeFieldName,
  PUBLIC_LANES,
  type PublicationPolicy,
} from "./policy.ts";
import { COMPARABLE_METADATA } from "./comparability.ts";
import { CODE_PATTERN } from "./records.ts";

export interface Finding {
  readonly code: string;
  readonly message: string;
}
type Report = (code: string, message: string) => void;

/** Allowed fields by level; `optional` ones may be absent (an error's presence is a lifecycle rule). */
const LEVELS = {
  record: {
    fields: [
      "schema_version",
      "benchmark_version",
      "run_id",
      "model",
      "metadata",
      "task_id",
      "trial",
      "started_at",
      "status",
      "discovery",
      "selection",
      "inspection",
      "parameterization",
      "call",
      "error",
      "finished_at",
      "source_record_sha256",
    ],
    optional: ["error"],
  },
  // The comparable metadata, in its order, then the policy the record was published under.
  metadata: {
    fields: [...COMPARABLE_METADATA, "publication_policy"],
    optional: [],
  },
  runtime: { fields: ["node", "platform", "arch"], optional: [] },
  discovery: { fields: ["result_count", "snapshot_sha256", "selection_grounded"], optional: [] },
  selection: { fields: ["tool_id", "tool_id_sha256"], optional: ["tool_id_sha256"] },
  inspection: { fields: ["selection_grounded"], optional: [] },
  parameterization: { fields: ["required_parameter_accuracy", "constraint_accuracy"], optional: [] },
  call: { fields: ["attempted", "success", "result_nonempty"], optional: ["result_nonempty"] },
  error: { fields: ["stage", "reason_code"], optional: [] },
} as const satisfies Record<string, { fields: readonly string[]; optional: readonly string[] }>;

/** The discovery snapshot of no results: the SHA-256 of `[]`. */
export const EMPTY_SNAPSHOT_SHA256 = sha256Hex("[]");
const SHA256 = /^[a-f0-9]{64}$/;
const COMMIT = /^[a-f0-9]{40}(?:[a-f0-9]{24})?$/;

export const isSha256 = (value: unknown): value is string => typeof value === "string" && SHA256.test(value);
const isShare = (value: unknown) =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= 1;
const show = (value: unknown) => (value === undefined ? "absent" : JSON.stringify(value));

/** An ISO 8601 UTC timestamp exactly as `Date.prototype.toISOString` writes it. */
export function isTimestamp(value: unknown): boolean {
  if (typeof value !== "string" || !Number.isFinite(Date.parse(value))) return false;
  return new Date(value).toISOString() === value;
}

export type JsonPath = ReadonlyArray<string | number>;

/** `$.models[0].lane` */
export function formatPath(path: JsonPath): string {
  return `$${path.map((part) => (typeof part === "number" ? `[${part}]` : `.${part}`)).join("")}`;
}

/** The path of every forbidden name at any depth of `value`, arrays included. */
export function forbiddenPaths(
  value: unknown,
  forbidden: ReadonlySet<string>,
  path: JsonPath = [],
): JsonPath[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => forbiddenPaths(item, forbidden, [...path, i]));
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([key, child]) => [
    ...(forbidden.has(normalizeFieldName(key)) ? [[...path, key]] : []),
    ...forbiddenPaths(child, forbidden, [...path, key]),
  ]);
}

/** Checks one level's field set; false when it is not an object (its rules are then skipped). */
function fieldSet(
  value: unknown,
  level: keyof typeof LEVELS,
  path: string,
  forbidden: ReadonlySet<string>,
  report: Report,
): value is Json {
  if (!isObject(value)) {
    report("not_an_object", `${path} must be an object, not ${show(value)}`);
    return false;
  }
  const { fields, optional } = LEVELS[level];
  for (const key of Object.keys(value))
    if (!(fields as readonly string[]).includes(key) && !forbidden.has(normalizeFieldName(key)))
      report("unsupported_field", `${path}.${key} is not a field of a public record`);
  for (const key of fields)
    if (!(optional as readonly string[]).includes(key) && !Object.hasOwn(value, key))
      report("missing_field", `${path}.${key} is missing`);
  return true;
}

/** Every problem of one public record under a policy, without the official-run rules. */
export function checkPublicRecord(record: unknown, policy: PublicationPolicy): Finding[] {
  const findings: Finding[] = [];
  const report: Report = (code, message) => findings.push({ code, message });
  const forbidden = forbiddenFieldSet(policy);
  for (const path of forbiddenPaths(record, forbidden))
    report(
      "forbidden_field",
      `${formatPath(path)} is a field policy ${policy.policy_id} forbids in public artefacts`,
    );
  if (!fieldSet(record, "record", "$", forbidden, report)) return findings;
  identity(record, report);
  const metadata = record["metadata"];
  if (fieldSet(metadata, "metadata", "$.metadata", forbidden, report)) {
    metadataRules(metadata, policy, report);
    if (fieldSet(metadata["runtime"], "runtime", "$.metadata.runtime", forbidden, report))
      for (const key of LEVELS.runtime.fields)
        if (key in metadata["runtime"] && !isSafePublicString(metadata["runtime"][key], 128))
          report("invalid_metadata", `$.metadata.runtime.${key} must be a short, non-blank plain string`);
  }
  const parts = {
    discovery: fieldSet(record["discovery"], "discovery", "$.discovery", forbidden, report),
    selection: fieldSet(record["selection"], "selection", "$.selection", forbidden, report),
    inspection: fieldSet(record["inspection"], "inspection", "$.inspection", forbidden, report),
    parameterization: fieldSet(
      record["parameterization"],
      "parameterization",
      "$.parameterization",
      forbidden,
      report,
    ),
    call: fieldSet(record["call"], "call", "$.call", forbidden, report),
  };
  if (record["error"] !== undefined && fieldSet(record["error"], "error", "$.error", forbidden, report))
    errorRules(record["error"], report);
  const limit = isObject(metadata) ? metadata["discovery_limit"] : undefined;
  if (parts.selection) selectionRules(record["selection"] as Json, policy, report);
  if (parts.discovery) discoveryRules(record["discovery"] as Json, limit, report);
  if (parts.parameterization)
    for (const key of LEVELS.parameterization.fields)
      if (key in (record["parameterization"] as Json) && !isShare((record["parameterization"] as Json)[key]))
        report("invalid_parameterization", `$.parameterization.${key} must be a number from 0 to 1`);
  if (parts.discovery && parts.selection && parts.inspection) groundingRules(record, report);
  if (parts.call) callRules(record, report);
  if ("source_record_sha256" in record && !isSha256(record["source_record_sha256"]))
    report("invalid_source_digest", "$.source_record_sha256 must be a lowercase hex SHA-256");
  return findings;
}

function identity(record: Json, report: Report): void {
  const bad = (field: string, rule: string) => {
    if (field in record) report("invalid_identity", `$.${field} ${rule}, not ${show(record[field])}`);
  };
  if (record["schema_version"] !== 1) bad("schema_version", "must be 1");
  if (record["benchmark_version"] !== "v1" && record["benchmark_version"] !== "v2")
    bad("benchmark_version", "must be v1 or v2");
  for (const field of ["run_id", "model", "task_id"])
    if (!isSafePublicString(record[field], 256))
      bad(field, "must be a non-blank plain string of at most 256 characters");
  const trial = record["trial"];
  if (!Number.isInteger(trial) || (trial as number) < 1 || (trial as number) > 100)
    bad("trial", "must be an integer from 1 to 100");
  if (record["status"] !== "completed" && record["status"] !== "failed")
    bad("status", "must be completed or failed");
  for (const field of ["started_at", "finished_at"])
    if (!isTimestamp(record[field])) bad(field, "must be an ISO 8601 UTC timestamp as toISOString writes it");
  const [started, finished] = [record["started_at"], record["finished_at"]];
  if (
    isTimestamp(started) &&
    isTimestamp(finished) &&
    Date.parse(finished as string) < Date.parse(started as string)
  )
    report("invalid_lifecycle", "$.finished_at is earlier than $.started_at");
  const status = record["status"];
  if (status === "failed" && record["error"] === undefined)
    report("invalid_lifecycle", "a failed trial needs $.error");
  if (status === "completed" && record["error"] !== undefined)
    report("invalid_lifecycle", "a completed trial has no $.error");
}

function metadataRules(metadata: Json, policy: PublicationPolicy, report: Report): void {
  const present = (key: string) => Object.hasOwn(metadata, key);
  if (present("publication_policy") && metadata["publication_policy"] !== policy.policy_id)
    report(
      "policy_mismatch",
      `$.metadata.publication_policy is ${show(metadata["publication_policy"])}, but the policy is ${policy.policy_id}`,
    );
  if (present("api_base_url") && !policy.approved_api_base_urls.includes(metadata["api_base_url"] as string))
    report(
      "unapproved_api_base_url",
      `$.metadata.api_base_url is not approved by policy ${policy.policy_id}`,
    );
  if (present("lane") && !(PUBLIC_LANES as readonly unknown[]).includes(metadata["lane"]))
    report(
      "invalid_lane",
      `$.metadata.lane ${show(metadata["lane"])} is not one of ${PUBLIC_LANES.join(", ")}`,
    );
  for (const key of ["task_set_sha256", "catalog_observation_sha256"])
    if (present(key) && !isSha256(metadata[key]))
      report("invalid_metadata", `$.metadata.${key} must be a lowercase hex SHA-256`);
  const limit = metadata["discovery_limit"];
  if (
    present("discovery_limit") &&
    (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > 100)
  )
    report("invalid_metadata", "$.metadata.discovery_limit must be an integer from 1 to 100");
  if (present("execute") && typeof metadata["execute"] !== "boolean")
    report("invalid_metadata", "$.metadata.execute must be true or false");
  for (const key of [
    "model_revision",
    "adapter_revision",
    "toolkit_revision",
    "api_revision",
    "catalog_revision",
  ])
    if (present(key) && !isSafePublicString(metadata[key], 256))
      report(
        "invalid_metadata",
        `$.metadata.${key} must be a non-blank plain string of at most 256 characters`,
      );
  if (metadata["lane"] === "pinned-model" && metadata["model_revision"] === "unreported")
    report("unpinned_model_revision", "a pinned-model lane needs an immutable $.metadata.model_revision");
}

function selectionRules(selection: Json, policy: PublicationPolicy, report: Report): void {
  const toolId = selection["tool_id"];
  if (typeof toolId === "string" && toolId !== "" && !policy.approved_selected_tool_ids.includes(toolId))
    report(
      "unapproved_tool_id",
      `$.selection.tool_id ${toolId} is not approved by policy ${policy.policy_id}; publish its SHA-256 instead`,
    );
  if ("tool_id" in selection && toolId !== null && (typeof toolId !== "string" || toolId === ""))
    report("invalid_selection", `$.selection.tool_id must be a tool id or null, not ${show(toolId)}`);
  if (!("tool_id_sha256" in selection)) return;
  if (!isSha256(selection["tool_id_sha256"]))
    report("invalid_selection", "$.selection.tool_id_sha256 must be a lowercase hex SHA-256");
  if (typeof toolId === "string" && toolId !== "")
    report(
      "invalid_selection",
      "$.selection has both a tool_id and a tool_id_sha256; an approved tool has no digest",
    );
}

function discoveryRules(discovery: Json, limit: unknown, report: Report): void {
  const count = discovery["result_count"];
  const snapshot = discovery["snapshot_sha256"];
  if ("result_count" in discovery && (!Number.isInteger(count) || (count as number) < 0))
    report("invalid_discovery", `$.discovery.result_count must be a count, not ${show(count)}`);
  else if (typeof limit === "number" && (count as number) > limit)
    report("invalid_discovery", `$.discovery.result_count ${count} exceeds the discovery limit ${limit}`);
  if ("snapshot_sha256" in discovery && !isSha256(snapshot))
    report("invalid_discovery", "$.discovery.snapshot_sha256 must be a lowercase hex SHA-256");
  else if (count === 0 && snapshot !== EMPTY_SNAPSHOT_SHA256)
    report("invalid_discovery", "$.discovery.snapshot_sha256 of no results must be the SHA-256 of []");
}

function groundingRules(record: Json, report: Report): void {
  const discovery = record["discovery"] as Json;
  const selection = record["selection"] as Json;
  const inspection = record["inspection"] as Json;
  const selected = discovery["selection_grounded"];
  const inspected = inspection["selection_grounded"];
  for (const [path, value] of [
    ["$.discovery.selection_grounded", selected],
    ["$.inspection.selection_grounded", inspected],
  ] as const)
    if (typeof value !== "boolean")
      report("invalid_grounding", `${path} must be true or false, not ${show(value)}`);
  const identified = Boolean(selection["tool_id"]) || Boolean(selection["tool_id_sha256"]);
  const inconsistent = (message: string) => report("inconsistent_grounding", message);
  if (selected === true && discovery["result_count"] === 0)
    inconsistent("the selection is grounded in discovery, but discovery returned no results");
  if ((selected === true || inspected === true) && !identified)
    inconsistent("a grounded selection needs $.selection.tool_id or $.selection.tool_id_sha256");
  if (inspected === true && selected !== true)
    inconsistent("the inspection is grounded, but the selection was not among the discovery results");
  if (record["status"] === "completed" && (selected !== true || inspected !== true))
    inconsistent("a completed trial's selection is grounded in both discovery and inspection");
}

function callRules(record: Json, report: Report): void {
  const call = record["call"] as Json;
  const { attempted, success } = call;
  const nonempty = call["result_nonempty"];
  const execute = isObject(record["metadata"]) ? record["metadata"]["execute"] : undefined;
  if ("attempted" in call && typeof attempted !== "boolean")
    report("invalid_call", `$.call.attempted must be true or false, not ${show(attempted)}`);
  if ("success" in call && success !== null && typeof success !== "boolean")
    report("invalid_call", `$.call.success must be true, false or null, not ${show(success)}`);
  if (nonempty !== undefined && typeof nonempty !== "boolean")
    report("invalid_call", `$.call.result_nonempty must be true or false, not ${show(nonempty)}`);
  const inconsistent = (message: string) => report("inconsistent_call", message);
  if (attempted === false && (success !== null || nonempty !== undefined))
    inconsistent("a call that was not attempted has no success or result_nonempty");
  if (nonempty === true && success !== true) inconsistent("a non-empty result needs a successful call");
  if (attempted === true && execute !== true) inconsistent("a call was attempted in a run without execute");
  if (record["status"] === "completed" && execute === true && attempted !== true)
    inconsistent("a completed trial of an executing run attempted its call");
  if (record["status"] === "completed" && attempted === true && typeof success !== "boolean")
    inconsistent("a completed trial's attempted call succeeded or failed");
  if (record["status"] === "failed" && (success !== null || nonempty !== undefined))
    inconsistent("a failed trial has no call success or result_nonempty");
}

function errorRules(error: Json, report: Report): void {
  const { stage, reason_code: reason } = error;
  if ("stage" in error && !(typeof stage === "string" && CODE_PATTERN.test(stage)))
    report("invalid_error_code", `$.error.stage must be a code like adapter, not ${show(stage)}`);
  if ("reason_code" in error && reason !== null && !(typeof reason === "string" && CODE_PATTERN.test(reason)))
    report(
      "invalid_error_code",
      `$.error.reason_code must be null or a code like tool_use_rejected, not ${show(reason)}`,
    );
}

/** The official-run rules of one record (§7): executed, real revisions, this task set. */
export function checkOfficialRecord(record: Json, taskSetSha256: string): Finding[] {
  const findings: Finding[] = [];
  const report: Report = (code, message) => findings.push({ code, message });
  const metadata = isObject(record["metadata"]) ? record["metadata"] : {};
  if (metadata["task_set_sha256"] !== taskSetSha256)
    report(
      "task_set_mismatch",
      `$.metadata.task_set_sha256 is not the given task set's SHA-256 (${taskSetSha256})`,
    );
  if (metadata["execute"] !== true) report("not_executed", "an official run executes every trial's call");
  for (const key of ["api_revision", "catalog_revision"])
    if (metadata[key] === "pending")
      report("pending_revision", `$.metadata.${key} is still pending: the run never made its final write`);
  if (record["benchmark_version"] !== "v2") return findings;
  if (metadata["lane"] === "model")
    report("unnamed_lane", "an official v2 run names its comparison lane, not model");
  if (metadata["lane"] === "reference" && metadata["model_revision"] === "unreported")
    report(
      "unpinned_model_revision",
      "an official reference lane needs an immutable $.metadata.model_revision",
    );
  if (!(typeof metadata["toolkit_revision"] === "string" && COMMIT.test(metadata["toolkit_revision"])))
    report("invalid_toolkit_revision", "an official v2 run's $.metadata.toolkit_revision is a commit SHA");
  if (metadata["adapter_revision"] === "unreported")
    report("unreported_adapter_revision", "an official v2 run reports its $.metadata.adapter_revision");
  return findings;
}
