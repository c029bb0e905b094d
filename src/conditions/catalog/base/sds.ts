/**
 * Safety data sheets (SDS hub): sheets by product or CAS number, their GHS classification,
 * exposure limits and physical properties. Errors are `{success: false, error_code, error_message}`.
 */
import { oneOf, out, pageSize, pageToken, str, type ToolSpec } from "../spec.ts";

const SDS_ID = str("safety data sheet identifier, e.g. SDS-ACE-0091-r7");
const INVALID = { success: false, error_code: "BAD_REQUEST", error_message: "{@message}" };
const UNKNOWN_SDS = {
  success: false,
  error_code: "SDS_NOT_FOUND",
  error_message: "no safety data sheet {sds_id}",
};

export const SDS: ToolSpec = {
  tool: "sds",
  description:
    "Safety data sheets (SDS hub): the current sheet of every product held on site, by product name or CAS number — GHS classification, occupational exposure limits and physical and chemical properties.",
  endpoints: [
    {
      name: "search",
      description:
        "Find safety data sheets by product name, CAS number or supplier, in a language; each hit gives the sheet id, product, supplier, revision and revision date.",
      params: {
        query: str("product or substance name"),
        cas_number: str("CAS registry number, e.g. 7664-93-9"),
        supplier: str("only sheets issued by this supplier"),
        language: oneOf(["en", "de", "es", "fr", "ja", "ko"], "language of the sheet (default en)", "en"),
        page_size: pageSize(50, 10),
        page_token: pageToken(),
      },
      required: [],
      access: "read",
      outputs: [
        out("sheets", "array", "sds_id, product, supplier, cas_numbers, revision, revised_on, language"),
        out("next_page_token", "string", "token of the next page, null on the last"),
      ],
      replies: { empty: { success: true, sheets: [], next_page_token: null }, validation_error: INVALID },
    },
    {
      name: "hazards",
      description:
        "GHS classification on a safety data sheet (section 2): hazard classes and categories, pictograms, signal word, hazard (H) and precautionary (P) statements.",
      params: { sds_id: SDS_ID },
      required: ["sds_id"],
      access: "read",
      outputs: [
        out("classification", "array", "hazard class, category, H statement"),
        out("signal_word", "string", "Danger or Warning"),
        out("precautionary_statements", "array", "P statements"),
        out("source_id", "string", "identifier of the sheet revision"),
      ],
      replies: { not_found: UNKNOWN_SDS, validation_error: INVALID },
    },
    {
      name: "exposure_limits",
      description:
        "Occupational exposure limits of each component on a safety data sheet (section 8): 8-hour TWA and 15-minute STEL values with units, and the jurisdiction and list that set them.",
      params: {
        sds_id: SDS_ID,
        jurisdiction: oneOf(
          ["ACGIH_TLV", "OSHA_PEL", "NIOSH_REL", "EU_IOELV", "DE_AGW", "JP_JSOH", "KR_KOSHA", "ES_VLA"],
          "only limits of this list (omit for every list on the sheet)",
        ),
      },
      required: ["sds_id"],
      access: "read",
      outputs: [
        out("limits", "array", "component, cas_number, list, twa, stel, ceiling, unit, notation"),
        out("source_id", "string", "identifier of the sheet revision"),
      ],
      replies: { not_found: UNKNOWN_SDS, validation_error: INVALID },
    },
    {
      name: "properties",
      description:
        "Physical and chemical properties on a safety data sheet (section 9): appearance, melting and boiling point, flash point, vapour pressure, density and solubility, each with its unit and method.",
      params: {
        sds_id: SDS_ID,
        temperature_unit: oneOf(["degC", "degF"], "unit of temperatures (default degC)", "degC"),
      },
      required: ["sds_id"],
      access: "read",
      outputs: [
        out("properties", "array", "property, value, unit, method, condition"),
        out("source_id", "string", "identifier of the sheet revision"),
      ],
      replies: { not_found: UNKNOWN_SDS, validation_error: INVALID },
    },
  ],
};
