/**
 * Hard negatives of the standards library and the safety data sheets: services that hold the same
 * kind of value for the same grade or product — drafts, withdrawn editions, internal purchase
 * specifications, superseded sheets, compiled or measured elsewhere — so a task can give them a
 * plausible wrong answer. Each endpoint names the base route it imitates.
 */
import { replyStyle } from "../reply-styles.ts";
import { date, int, oneOf, out, str, type ToolSpec } from "../spec.ts";

const STANDARD_ID = str("standard identifier with edition, e.g. 'ASTM B348/B348M-21'");

const drafts = replyStyle("odata");
export const STANDARDS_DRAFTS: ToolSpec = {
  tool: "standards_drafts",
  description:
    "Standards committee workspace: working drafts, committee drafts and enquiry drafts (DIS, FprEN) circulated to members for comment and ballot.",
  endpoints: [
    {
      name: "clause",
      imitates: "standards.clause",
      description:
        "Text of a clause as it stands in a draft under ballot, with the comments received; wording and numbers may still change before publication.",
      params: {
        standard_id: STANDARD_ID,
        clause: str("clause number, e.g. '7.3.2'"),
        draft_stage: oneOf(["WD", "CD", "DIS", "FDIS"], "draft stage (default the latest)"),
      },
      required: ["standard_id", "clause"],
      access: "read",
      outputs: [
        out("draft_text", "string", "clause text in the draft"),
        out("comments", "array", "ballot comments"),
      ],
      replies: drafts.get("draft clause", "clause"),
    },
  ],
};

const withdrawn = replyStyle("jsonapi");
export const STANDARDS_ARCHIVE: ToolSpec = {
  tool: "standards_archive",
  description:
    "Withdrawn and superseded editions of standards, kept so that old test certificates can be read against the edition they cite.",
  endpoints: [
    {
      name: "limits",
      imitates: "standards.limits",
      description:
        "Specification limits that a withdrawn or superseded edition of a standard set for a grade, with the year the edition was replaced.",
      params: {
        standard_id: STANDARD_ID,
        designation: str("grade designation, e.g. 'Grade 5'"),
        property: str("only this property"),
      },
      required: ["standard_id", "designation"],
      access: "read",
      outputs: [
        out("limits", "array", "property, min, max, unit"),
        out("superseded_in", "integer", "year the edition was replaced"),
      ],
      replies: withdrawn.get("archived edition", "standard_id"),
    },
  ],
};

const internal = replyStyle("spring");
export const PURCHASE_SPECS: ToolSpec = {
  tool: "purchase_specs",
  description:
    "Internal purchasing specifications: the laboratory's own acceptance requirements for bought-in material, often tighter than the published standard.",
  endpoints: [
    {
      name: "limits",
      imitates: "standards.limits",
      description:
        "Acceptance limits an internal purchasing specification sets for a grade at receipt inspection, by internal spec number and revision.",
      params: {
        standard_id: str("internal specification number, e.g. 'PS-TI-014 rev C', or the standard it refines"),
        designation: str("grade designation"),
        property: str("only this property"),
      },
      required: ["standard_id", "designation"],
      access: "read",
      outputs: [out("acceptance_limits", "array", "property, min, max, unit, sampling_plan")],
      replies: internal.get("purchasing specification", "standard_id"),
    },
  ],
};

const SDS_ID = str("safety data sheet identifier, e.g. SDS-ACE-0091-r7");

const oldSheets = replyStyle("problem");
export const SDS_ARCHIVE: ToolSpec = {
  tool: "sds_archive",
  description:
    "Superseded safety data sheet revisions, kept for ten years as chemical regulation requires; not the sheet to work from.",
  endpoints: [
    {
      name: "hazards",
      imitates: "sds.hazards",
      description:
        "GHS classification as printed on a superseded revision of a safety data sheet; classifications and H statements may have changed in later revisions.",
      params: {
        sds_id: SDS_ID,
        revision: int("revision number (default the one before current)", { minimum: 1 }),
      },
      required: ["sds_id"],
      access: "read",
      outputs: [
        out("classification", "array", "hazard class, category, H statement"),
        out("revision", "integer", "revision shown"),
      ],
      replies: oldSheets.get("sheet revision", "sds_id"),
    },
  ],
};

const wiki = replyStyle("slack");
export const CHEM_ENCYCLOPEDIA: ToolSpec = {
  tool: "chem_encyclopedia",
  description:
    "Community chemical encyclopedia: physical data compiled by volunteers from assorted literature, by substance rather than by product or grade.",
  endpoints: [
    {
      name: "properties",
      imitates: "sds.properties",
      description:
        "Compiled physical properties of a substance — boiling point, flash point, density, vapour pressure — gathered from mixed literature, without a supplier, grade or test method.",
      params: {
        sds_id: str("substance page id or CAS number"),
        temperature_unit: oneOf(["degC", "degF", "K"], "unit of temperatures"),
      },
      required: ["sds_id"],
      access: "read",
      outputs: [out("properties", "array", "property, value, unit, citation_needed")],
      replies: wiki.get("substance page", "sds_id"),
    },
  ],
};

const hygiene = replyStyle("google");
export const EXPOSURE_MONITORING: ToolSpec = {
  tool: "exposure_monitoring",
  description:
    "Occupational hygiene monitoring: personal and area air-sampling results from the laboratory's exposure surveys.",
  endpoints: [
    {
      name: "survey_results",
      imitates: "sds.exposure_limits",
      description:
        "Measured airborne concentrations of a substance in exposure surveys, by area and date, as 8-hour time-weighted averages — what people were exposed to, not the limits.",
      params: {
        sds_id: str("safety data sheet or substance the survey sampled"),
        area: str("lab or area, e.g. 'B2 solvent room'"),
        from_date: date("surveys on or after this date"),
      },
      required: ["sds_id"],
      access: "read",
      outputs: [out("samples", "array", "area, sampled_on, twa, unit, sampler")],
      replies: hygiene.list("samples"),
    },
  ],
};
