/**
 * The checks a Discover → Call run makes on its command line before anything is read or sent: the
 * lane and the revisions it needs, the provenance strings every record repeats, the plan's bounds,
 * and the toolkit revision. Each failure is a usage error (exit 2) with its own code.
 */
import { usageError } from "../core/index.ts";
import { LANES } from "./records.ts";

export type DiscoverCallLane = (typeof LANES)[number];

/** Lanes whose results mean something only with a named model revision (§8). */
const NEEDS_MODEL_REVISION: readonly DiscoverCallLane[] = ["reference", "pinned-model"];

/** What `model_revision` says when no revision was given. */
export const UNREPORTED = "unreported";

/** Trials per task and the discovery limit: the bounds records accept. */
export const MAX_TRIALS = 100;
export const MAX_DISCOVERY_LIMIT = 100;

export function checkLane(lane: string, modelRevision: string | undefined): DiscoverCallLane {
  if (!(LANES as readonly string[]).includes(lane))
    throw usageError("unknown_lane", `--lane ${lane} is not a lane; use ${LANES.join(", ")}`);
  const checked = lane as DiscoverCallLane;
  if (NEEDS_MODEL_REVISION.includes(checked) && modelRevision === undefined)
    throw usageError("missing_model_revision", `--lane ${lane} needs --model-revision`);
  return checked;
}

/**
 * A label every record repeats (model, revisions): non-blank, at most 256 characters, no control or
 * invisible characters — what the record schema and the reference runner accept.
 */
export function checkProvenance(value: string, flag: string): string {
  if (value.trim() === "" || value.length > 256 || /[\p{Cc}\p{Cf}]/u.test(value))
    throw usageError(
      "bad_provenance",
      `${flag} must be a non-blank label of at most 256 characters without control characters`,
    );
  return value;
}

export function checkBound(value: number, max: number, flag: string): number {
  if (value > max) throw usageError("bad_number", `${flag} takes at most ${max}, not ${value}`);
  return value;
}

/** Where the toolkit revision comes from when `--toolkit-revision` is not given. */
export interface ToolkitCheckout {
  /** fabench's own git HEAD, or null when it is not running from its own checkout. */
  readonly head: () => string | null;
  /** `git status --porcelain --untracked-files=no` of that checkout, or null when git cannot tell. */
  readonly trackedChanges: () => string | null;
}

const COMMIT = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * `--toolkit-revision` (a 40- or 64-hex commit, any case) as given; else fabench's HEAD, from a clean
 * checkout only: records must name code that exists as a commit.
 */
export function resolveToolkitRevision(flag: string | undefined, checkout: ToolkitCheckout): string {
  if (flag !== undefined) {
    const revision = flag.trim().toLowerCase();
    if (!COMMIT.test(revision))
      throw usageError("bad_toolkit_revision", "--toolkit-revision takes a 40- or 64-character commit SHA");
    return revision;
  }
  const required = () =>
    usageError(
      "toolkit_revision_required",
      "fabench is not running from its own git checkout; give --toolkit-revision SHA (the commit this fabench was built from)",
    );
  const head = checkout.head();
  if (head === null || !COMMIT.test(head)) throw required();
  const changes = checkout.trackedChanges();
  if (changes === null) throw required();
  if (changes.trim() !== "")
    throw usageError(
      "dirty_checkout",
      "fabench's checkout has tracked changes, so its HEAD does not name the code that would run; commit or stash them, or give --toolkit-revision SHA",
    );
  return head;
}
