/**
 * The standards library: published ISO, ASTM, EN, DIN, JIS and KS standards, their clauses and the
 * specification limits they set for grades. Errors are `{error: {type, detail}}`.
 */
import { oneOf, out, pageSize, pageToken, str, type ToolSpec } from "../spec.ts";

const STANDARD_ID = str("standard identifier with edition, e.g. 'ASTM B348/B348M-21' or 'ISO 6892-1:2019'");
const INVALID = { error: { type: "invalid_request", detail: "{@message}" } };
const UNKNOWN_STANDARD = {
  error: { type: "not_found", detail: "the library holds no standard '{standard_id}'" },
};

export const STANDARDS: ToolSpec = {
  tool: "standards",
  description:
    "Standards library: published ISO, ASTM, EN, DIN, JIS and KS standards with their editions, the text of their clauses and the specification limits they set for material grades.",
  endpoints: [
    {
      name: "search",
      description:
        "Find standards by designation, title or subject; each hit gives the identifier, title, edition year and status (current, withdrawn, superseded).",
      params: {
        query: str("designation, title words or subject, e.g. 'titanium bar' or 'E8'"),
        body: oneOf(["ISO", "ASTM", "EN", "DIN", "JIS", "KS", "UNE", "IEC"], "only standards of this body"),
        status: oneOf(["current", "withdrawn", "superseded"], "only standards in this status"),
        page_size: pageSize(50, 10),
        page_token: pageToken(),
      },
      required: ["query"],
      access: "read",
      outputs: [
        out("standards", "array", "standard_id, title, body, edition_year, status"),
        out("next_page_token", "string", "token of the next page, null on the last"),
      ],
      replies: { empty: { standards: [], next_page_token: null }, validation_error: INVALID },
    },
    {
      name: "clause",
      description:
        "Text of one clause of a standard edition, verbatim, with its notes and the tables or figures it refers to.",
      params: { standard_id: STANDARD_ID, clause: str("clause number, e.g. '7.3.2' or 'Annex B.1'") },
      required: ["standard_id", "clause"],
      access: "read",
      outputs: [
        out("text", "string", "the clause text, verbatim"),
        out("notes", "array", "notes to the clause"),
        out("source_id", "string", "identifier of the standard edition"),
      ],
      replies: {
        not_found: {
          error: { type: "not_found", detail: "'{standard_id}' has no clause '{clause}'" },
        },
        validation_error: INVALID,
      },
    },
    {
      name: "limits",
      description:
        "Specification limits a standard sets for a grade: minimum and maximum of each property with units, for the product form and size range they apply to.",
      params: {
        standard_id: STANDARD_ID,
        designation: str("grade or alloy designation within the standard, e.g. 'Grade 5' or 'S355J2'"),
        property: str("only this property, e.g. tensile_strength, elongation, hardness"),
        unit_system: oneOf(["SI", "US_customary"], "which of the standard's unit systems (default SI)", "SI"),
      },
      required: ["standard_id", "designation"],
      access: "read",
      outputs: [
        out("limits", "array", "property, min, max, unit, product_form, size_range, clause"),
        out("source_id", "string", "identifier of the standard edition"),
      ],
      replies: {
        not_found: {
          error: { type: "not_found", detail: "'{standard_id}' sets no limits for '{designation}'" },
        },
        validation_error: INVALID,
      },
    },
  ],
};
