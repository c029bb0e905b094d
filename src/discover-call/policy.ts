/**
 * The publication policy (§7): which API origins and selected tools may appear in public
 * artefacts, and which field names may appear nowhere in them. The file has the reference
 * implementation's format (`publication-policy.json`), read as it is with `--policy`; fabench ships
 * its own in that format, `manifests/discover-call-publication-policy.json`.
 *
 * The schema accepts exactly the policies the reference accepts, with one difference: unknown
 * fields are refused rather than ignored. A policy is a list of rules, and a rule this reader does
 * not know would otherwise be a rule silently not enforced.
 *
 * Approved API base URLs are the public API itself (https, host qveris.ai or qveris.cn, path
 * /api/v1, no credentials, query or fragment), as in the reference. So a loopback server
 * (`fabench serve`) can never be approved, by fabench's policy or any other: a run against it
 * measures a local catalog, and its records are scored, not published. (Allowing loopback would
 * also make fabench's policy one the reference refuses.)
 *
 * fabench's policy approves the selected-tool ids the reference approves: ids whose provider
 * authorization was confirmed before they were published, and which its public results already
 * name. fabench cannot confirm that for a new id, so it adds none; `fabench serve`'s catalog
 * route ids are not API tools and stay hashed. Its forbidden names are the reference's plus a few
 * more credential and output names (message, stdout, stderr, cookie, …).
 */
import { join } from "node:path";
import { z } from "zod";
import {
  decodeUtf8,
  parseJsonText,
  type Result,
  toolRoot,
  withJsonLines,
  zodProblems,
} from "../core/index.ts";
import { problemsError, STAGE } from "./jsonl.ts";

export const POLICY_SCHEMA_VERSION = 1;

/** fabench's own policy, relative to the package root. */
export const DEFAULT_POLICY_FILE = "manifests/discover-call-publication-policy.json";

export function defaultPolicyPath(): string {
  return join(toolRoot(), DEFAULT_POLICY_FILE);
}

/** Lanes a public record may name; `model` is the lane older runs recorded. */
export const PUBLIC_LANES = [
  "model",
  "reference",
  "configured-model",
  "pinned-model",
  "current-model",
] as const;

/** Hosts of the public API; no other origin can be approved. */
export const PUBLIC_API_HOSTS = ["qveris.ai", "qveris.cn"] as const;
const PUBLIC_API_PATH = "/api/v1";

/** Field names every policy must forbid, whatever else it forbids. */
export const REQUIRED_FORBIDDEN_FIELDS = [
  "execution_id",
  "search_id",
  "session_id",
  "connection_id",
  "remaining_credits",
  "result_tool_ids",
  "returned_tool_ids",
  "api_key",
  "access_token",
  "refresh_token",
  "oauth_token",
  "authorization",
  "client_secret",
  "password",
  "parameters",
  "required_parameters",
] as const;

/** `Search-ID`, `searchId` and `search_id` are one name: lower-cased, letters and digits only. */
export function normalizeFieldName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** Non-blank, at most `max` UTF-16 units, free of control and format characters. */
export function isSafePublicString(value: unknown, max: number): value is string {
  return (
    typeof value === "string" &&
    value.trim().length > 0 &&
    value.length <= max &&
    !/[\p{Cc}\p{Cf}]/u.test(value)
  );
}

export function isPublicApiUrl(value: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return false;
  }
  return (
    parsed.protocol === "https:" &&
    (PUBLIC_API_HOSTS as readonly string[]).includes(parsed.hostname) &&
    parsed.username === "" &&
    parsed.password === "" &&
    parsed.search === "" &&
    parsed.hash === "" &&
    parsed.pathname.replace(/\/+$/, "") === PUBLIC_API_PATH
  );
}

const safeString = (max: number) =>
  z.string().refine((value) => isSafePublicString(value, max), {
    message: `must be non-blank, at most ${max} characters, without control or format characters`,
  });

export const publicationPolicySchema = z.strictObject({
  schema_version: z.literal(POLICY_SCHEMA_VERSION),
  policy_id: safeString(128),
  catalog_visibility_default: z
    .literal("private")
    .describe("catalog entries without an explicit visibility are private"),
  publish_parameters: z.literal(false).describe("raw parameter values are never published"),
  unapproved_selected_tool_handling: z
    .literal("hash")
    .describe("a selected tool that is not approved is published as its SHA-256 only"),
  legacy_lane_rewrites: z
    .record(z.string(), z.enum(PUBLIC_LANES))
    .optional()
    .describe("older lane names and the public lane each becomes"),
  approved_api_base_urls: z
    .array(
      z.string().refine(isPublicApiUrl, {
        message: `must be an https URL of ${PUBLIC_API_HOSTS.join(" or ")} with path ${PUBLIC_API_PATH}, without credentials, query or fragment`,
      }),
    )
    .min(1),
  approved_selected_tool_ids: z.array(safeString(512)),
  forbidden_fields: z
    .array(z.string())
    .superRefine((fields, ctx) => {
      const forbidden = new Set(fields.map(normalizeFieldName));
      const missing = REQUIRED_FORBIDDEN_FIELDS.filter((name) => !forbidden.has(normalizeFieldName(name)));
      if (missing.length > 0)
        ctx.addIssue({ code: "custom", message: `must also forbid ${missing.join(", ")}` });
    })
    .describe("field names that may appear at no depth of a public record, compared normalized"),
});

export type PublicationPolicy = z.infer<typeof publicationPolicySchema>;

/** The normalized forbidden names of a policy. */
export function forbiddenFieldSet(policy: PublicationPolicy): Set<string> {
  return new Set(policy.forbidden_fields.map(normalizeFieldName));
}

/** The public lane of a raw lane under a policy's rewrites (own keys only). */
export function rewriteLane(policy: PublicationPolicy, lane: string): string {
  const rewrites = policy.legacy_lane_rewrites ?? {};
  return Object.hasOwn(rewrites, lane) ? (rewrites[lane] as string) : lane;
}

/** Every problem of a policy file, or the policy; a file that is not JSON throws (input, exit 2). */
export function checkPolicy(bytes: Uint8Array, file: string): Result<PublicationPolicy> {
  const text = decodeUtf8(bytes, file, STAGE);
  const parsed = publicationPolicySchema.safeParse(parseJsonText(text, file, STAGE));
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, problems: withJsonLines(zodProblems(parsed.error, "invalid_policy", file), text) };
}

/** The policy in `bytes`, or a FabenchError (input, exit 2) listing every problem. */
export function parsePolicy(bytes: Uint8Array, file: string): PublicationPolicy {
  const checked = checkPolicy(bytes, file);
  if (!checked.ok) throw problemsError(file, checked.problems);
  return checked.value;
}
