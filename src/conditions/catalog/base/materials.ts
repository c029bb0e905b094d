/**
 * The materials property database (MatDB): registered materials, their approved property values,
 * the test records behind them and every revision a value has had. Errors are
 * `{error: {code, message}}` with upper-case codes, as its REST API answers.
 */
import { date, oneOf, out, pageSize, pageToken, str, type ToolSpec } from "../spec.ts";

const fault = (code: string, message: string) => ({ error: { code, message } });
const INVALID = fault("INVALID_ARGUMENT", "{@message}");
const UNKNOWN_MATERIAL = fault("MATERIAL_NOT_FOUND", "material '{material_id}' is not registered");

const MATERIAL_ID = str("material identifier, e.g. MAT-4471-TI");
const PROPERTY = str(
  "property key, e.g. youngs_modulus, yield_strength_rp02, density, thermal_conductivity, glass_transition_temperature",
);
const UNIT_SYSTEM = oneOf(
  ["as_recorded", "SI", "US_customary"],
  "units of the returned values: as recorded by the test laboratory, converted to SI, or to US customary units",
  "as_recorded",
);

export const MATERIALS: ToolSpec = {
  tool: "materials",
  description:
    "Materials property database (MatDB): registered materials, their approved measured properties, the test records behind them and the revision history of every value, with units and provenance.",
  endpoints: [
    {
      name: "search",
      description:
        "Search registered materials by name, trade name, grade, composition or supplier; returns material ids with class, supplier and registration status, best match first.",
      params: {
        query: str("name, grade, trade name or composition, e.g. 'Ti-6Al-4V bar' or 'PEEK 450G'"),
        material_class: oneOf(
          ["metal_alloy", "polymer", "ceramic", "composite", "glass", "elastomer", "foam", "powder"],
          "only materials of this class",
        ),
        supplier: str("only materials registered from this supplier"),
        status: oneOf(
          ["active", "archived", "quarantined"],
          "registration status (default active)",
          "active",
        ),
        page_size: pageSize(100, 20),
        page_token: pageToken(),
      },
      required: ["query"],
      access: "read",
      outputs: [
        out("materials", "array", "matching materials: material_id, name, class, supplier, status"),
        out("total_size", "integer", "number of matches"),
        out("next_page_token", "string", "token of the next page, null on the last"),
      ],
      replies: {
        empty: { materials: [], total_size: 0, next_page_token: null },
        validation_error: INVALID,
      },
    },
    {
      name: "retrieve",
      description:
        "Get a material's registry record by material id: designation, composition, supplier, lot, processing condition, registration date and the data artifacts linked to it.",
      params: { material_id: MATERIAL_ID },
      required: ["material_id"],
      access: "read",
      outputs: [
        out(
          "material",
          "object",
          "registry record: designation, composition, supplier, lot, condition, registered_at",
        ),
        out("artifacts", "array", "linked data artifacts: artifact_id, kind, created_at"),
        out("source_id", "string", "identifier of the registry record revision"),
      ],
      replies: { not_found: UNKNOWN_MATERIAL, validation_error: INVALID },
    },
    {
      name: "current",
      description:
        "Current approved value of a material's properties (Young's modulus, density, yield strength, conductivity, …): one row per property with value, unit, test method, test temperature and the test record it comes from.",
      params: {
        material_id: MATERIAL_ID,
        property: str(
          "property key, e.g. youngs_modulus, yield_strength_rp02, density (omit for every approved property)",
        ),
        unit_system: UNIT_SYSTEM,
      },
      required: ["material_id"],
      access: "read",
      outputs: [
        out("properties", "array", "property, value, unit, method, test_temperature, record_id, approved_at"),
        out("source_id", "string", "identifier of the approved property set"),
      ],
      replies: {
        not_found: UNKNOWN_MATERIAL,
        validation_error: INVALID,
        unmatched: "not_found",
      },
    },
    {
      name: "history",
      description:
        "Revision history of one property of a material: every value the database has held, with effective dates, status (approved, superseded, withdrawn) and the reason for each change, oldest first.",
      params: {
        material_id: MATERIAL_ID,
        property: PROPERTY,
        from_date: date("only revisions effective on or after this date"),
        to_date: date("only revisions effective on or before this date"),
        unit_system: UNIT_SYSTEM,
        page_size: pageSize(100, 50),
        page_token: pageToken(),
      },
      required: ["material_id", "property"],
      access: "read",
      outputs: [
        out(
          "revisions",
          "array",
          "value, unit, status, effective_from, effective_to, change_reason, record_id",
        ),
        out("next_page_token", "string", "token of the next page, null on the last"),
        out("source_id", "string", "identifier of the property's revision log"),
      ],
      replies: {
        not_found: UNKNOWN_MATERIAL,
        empty: { material_id: "{material_id}", property: "{property}", revisions: [], next_page_token: null },
        validation_error: INVALID,
      },
    },
    {
      name: "test_records",
      description:
        "Individual test records behind a material's property values: specimen, lot, test standard, orientation, test temperature, measured value and laboratory, filterable by property, lot and test date.",
      params: {
        material_id: MATERIAL_ID,
        property: PROPERTY,
        lot: str("only specimens cut from this lot"),
        test_standard: str("only tests to this standard, e.g. 'ASTM E8/E8M' or 'ISO 527-2'"),
        orientation: oneOf(
          ["longitudinal", "transverse", "short_transverse", "through_thickness", "not_applicable"],
          "specimen orientation relative to the product's working direction",
        ),
        tested_from: date("only tests on or after this date"),
        tested_to: date("only tests on or before this date"),
        page_size: pageSize(200, 50),
        page_token: pageToken(),
      },
      required: ["material_id"],
      access: "read",
      outputs: [
        out(
          "records",
          "array",
          "record_id, specimen_id, lot, property, value, unit, test_standard, orientation, test_temperature, tested_on, laboratory",
        ),
        out("next_page_token", "string", "token of the next page, null on the last"),
      ],
      replies: {
        not_found: UNKNOWN_MATERIAL,
        empty: { material_id: "{material_id}", records: [], next_page_token: null },
        validation_error: INVALID,
      },
    },
  ],
};
