/**
 * A pilot: the preregistered protocol with its prerequisite gate removed, so answer inference can
 * run for power and cost planning before the prerequisite succeeds. Its id and title say PILOT, its
 * hash differs from the preregistration's, and every verdict made under it is labelled "not
 * preregistered" — a pilot sizes the study; it never supports the claim.
 */
import { z } from "zod";
import type { Protocol } from "./protocol.ts";
import { withSearchConditions } from "./search-conditions.ts";

export { PILOT_FILES } from "./pilot-files.ts";

export const PILOT_FORMAT = "fabench-pilot/v1";
export const PILOT_SUFFIX = "-pilot";

export const PILOT_NOTE =
  "A pilot protocol: the preregistered protocol without its prerequisite gate. Use its runs for power and cost planning (fabench power --runs, --estimate); never for the claim. Every verdict under it is labelled not preregistered.";

/**
 * `withSearch` (`pilot init --with-search`) appends the four tool-search conditions (#34) after the
 * preregistered ones; the plan, the turn budget and the preregistered conditions stay as they are.
 */
export function pilotProtocol(protocol: Protocol, options: { readonly withSearch?: boolean } = {}): Protocol {
  const source = options.withSearch === true ? withSearchConditions(protocol) : protocol;
  return {
    ...source,
    protocol_id: `${protocol.protocol_id}${PILOT_SUFFIX}`,
    title: `PILOT (not preregistered; prerequisite gate removed): ${protocol.title}`,
    prerequisites: { ...protocol.prerequisites, gate_stage: null },
  };
}

export function isPilotProtocol(protocol: Protocol): boolean {
  return protocol.protocol_id.endsWith(PILOT_SUFFIX);
}

const sha = z.string().regex(/^[0-9a-f]{64}$/);

/** `pilot.json`: what the pilot is, what it was made from, and the hash of each file made. */
export const pilotMarkerSchema = z.strictObject({
  format: z.literal(PILOT_FORMAT),
  protocol_id: z.string(),
  protocol_sha256: sha,
  made_from: z.strictObject({ protocol_id: z.string(), protocol_sha256: sha }),
  note: z.string(),
  files: z.record(z.string(), sha),
});
