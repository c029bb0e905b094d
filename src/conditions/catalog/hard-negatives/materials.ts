/**
 * Hard negatives of the materials database: services that hold the same kind of value for the
 * same material or grade — frozen, deprecated, nominal, predicted, replicated late, unreviewed or
 * legacy — so a task can give them a plausible wrong answer. Each endpoint names the base route it
 * imitates. The standards and safety data sheet hard negatives are in standards.ts.
 */
import { replyStyle } from "../reply-styles.ts";
import { int, oneOf, out, pageSize, pageToken, str, strList, type ToolSpec } from "../spec.ts";

const MATERIAL_ID = str("material identifier, e.g. MAT-4471-TI");
const PROPERTY = str("property key, e.g. youngs_modulus, yield_strength_rp02, density");

const archive = replyStyle("odata");
export const MATERIALS_ARCHIVE: ToolSpec = {
  tool: "materials_archive",
  description:
    "Materials database archive: a read-only copy of MatDB frozen at the 2021-12-31 snapshot; nothing measured, approved or withdrawn since is in it.",
  endpoints: [
    {
      name: "current",
      imitates: "materials.current",
      description:
        "Property values of a material as they were approved on 2021-12-31, one row per property with value, unit and test method; later approvals and withdrawals are not reflected.",
      params: {
        material_id: MATERIAL_ID,
        property: PROPERTY,
        unit_system: oneOf(["as_recorded", "SI"], "units of the values"),
      },
      required: ["material_id"],
      access: "read",
      outputs: [
        out("properties", "array", "property, value, unit, method, approved_at"),
        out("snapshot", "string", "2021-12-31"),
      ],
      replies: archive.get("material", "material_id"),
    },
    {
      name: "history",
      imitates: "materials.history",
      description:
        "Revision history of a material property up to the 2021 snapshot, oldest first; revisions made after the freeze are missing.",
      params: {
        material_id: MATERIAL_ID,
        property: PROPERTY,
        page_size: pageSize(100, 50),
        page_token: pageToken(),
      },
      required: ["material_id", "property"],
      access: "read",
      outputs: [out("revisions", "array", "value, unit, status, effective_from, effective_to")],
      replies: archive.list("revisions"),
    },
  ],
};

const v1 = replyStyle("spring");
export const MATERIALS_V1: ToolSpec = {
  tool: "materials_v1",
  description:
    "MatDB API v1, deprecated since 2023 and kept for old integrations: flat property fields in fixed SI units, without test method, record id or approval status.",
  endpoints: [
    {
      name: "properties",
      imitates: "materials.current",
      description:
        "Deprecated v1 lookup of a material's property values as flat fields (youngs_modulus_gpa, density_kg_m3, …), the value last written by any laboratory, approved or not.",
      params: {
        material_id: MATERIAL_ID,
        fields: strList("v1 field names to return, e.g. ['youngs_modulus_gpa']"),
      },
      required: ["material_id"],
      access: "read",
      outputs: [
        out("fields", "object", "flat v1 fields with SI values"),
        out("deprecated", "boolean", "always true"),
      ],
      replies: v1.get("material", "material_id"),
    },
  ],
};

const sheets = replyStyle("jsonapi");
export const DATASHEETS: ToolSpec = {
  tool: "datasheets",
  description:
    "Supplier datasheet library: the typical property values suppliers publish for their grades in product literature, as PDFs and extracted tables.",
  endpoints: [
    {
      name: "nominal",
      imitates: "materials.current",
      description:
        "Typical (nominal) property values a supplier's datasheet states for a material's grade — values declared for the grade in general, not measured on the registered lot.",
      params: {
        material_id: MATERIAL_ID,
        property: PROPERTY,
        datasheet_edition: str("datasheet edition, e.g. '2022-03' (default latest)"),
      },
      required: ["material_id"],
      access: "read",
      outputs: [
        out("typical_values", "array", "property, typical value, unit, condition"),
        out("datasheet", "string", "datasheet title and edition"),
      ],
      replies: sheets.get("datasheet", "material_id"),
    },
  ],
};

const predict = replyStyle("google");
export const MATERIALS_PREDICT: ToolSpec = {
  tool: "materials_predict",
  description:
    "Materials informatics service: property values predicted by machine-learned surrogate models from a material's composition and processing route.",
  endpoints: [
    {
      name: "properties",
      imitates: "materials.current",
      description:
        "Predicted property values of a material from the surrogate model, each with a 90 % prediction interval and the model version; model output, not a measurement.",
      params: {
        material_id: MATERIAL_ID,
        property: PROPERTY,
        model_version: oneOf(["gbr-2024.2", "gnn-2025.1"], "surrogate model (default the newest)"),
        unit_system: oneOf(["SI", "US_customary"], "units of the predictions (default SI)", "SI"),
      },
      required: ["material_id"],
      access: "read",
      outputs: [out("predictions", "array", "property, predicted, lower_90, upper_90, unit, model_version")],
      replies: predict.get("material", "material_id"),
    },
    {
      name: "ageing_forecast",
      imitates: "materials.history",
      description:
        "Forecast of how a material property will drift over the coming months under an assumed ageing and exposure model, month by month.",
      params: {
        material_id: MATERIAL_ID,
        property: PROPERTY,
        horizon_months: int("months ahead, 1–60 (default 12)", { minimum: 1, maximum: 60, default: 12 }),
        exposure: oneOf(
          ["indoor_dry", "humid", "marine", "elevated_temperature"],
          "assumed service environment",
        ),
      },
      required: ["material_id", "property"],
      access: "read",
      outputs: [out("forecast", "array", "month, value, unit")],
      replies: predict.get("material", "material_id"),
    },
  ],
};

const replica = replyStyle("problem");
export const MATERIALS_EU: ToolSpec = {
  tool: "materials_eu",
  description:
    "MatDB EU replica (Frankfurt), synchronised from the primary database once a night; reads can lag the primary by up to 24 hours.",
  endpoints: [
    {
      name: "current",
      imitates: "materials.current",
      description:
        "Current approved property values of a material as replicated to the EU region at the last nightly sync; approvals of the past day are missing.",
      params: {
        material_id: MATERIAL_ID,
        property: PROPERTY,
        unit_system: oneOf(
          ["as_recorded", "SI", "US_customary"],
          "units of the values (default as_recorded)",
          "as_recorded",
        ),
      },
      required: ["material_id"],
      access: "read",
      outputs: [
        out("properties", "array", "property, value, unit, method, record_id"),
        out("replicated_at", "string", "time of the last sync"),
      ],
      replies: replica.get("material", "material_id"),
    },
    {
      name: "retrieve",
      imitates: "materials.retrieve",
      description:
        "Registry record of a material as replicated to the EU region; artifact links point at replica copies that can be a day old.",
      params: { material_id: MATERIAL_ID },
      required: ["material_id"],
      access: "read",
      outputs: [
        out("material", "object", "designation, composition, supplier, lot"),
        out("artifacts", "array", "replica artifact ids"),
      ],
      replies: replica.get("material", "material_id"),
    },
  ],
};

const staging = replyStyle("graphql");
export const MATERIALS_STAGING: ToolSpec = {
  tool: "materials_staging",
  description:
    "MatDB staging area: test records the laboratories have uploaded that are waiting for review; reviewers reject about one in ten.",
  endpoints: [
    {
      name: "test_records",
      imitates: "materials.test_records",
      description:
        "Uploaded test records of a material awaiting review, filterable by property and lot, each with its upload time and review state (pending, in_review).",
      params: {
        material_id: MATERIAL_ID,
        property: PROPERTY,
        lot: str("only specimens from this lot"),
        page_size: pageSize(200, 50),
        page_token: pageToken(),
      },
      required: ["material_id"],
      access: "read",
      outputs: [out("records", "array", "upload_id, specimen_id, lot, property, value, unit, review_state")],
      replies: staging.list("stagedRecords"),
    },
  ],
};

const legacy = replyStyle("fault");
export const MATERIALS_REGISTRY_2019: ToolSpec = {
  tool: "materials_registry_2019",
  description:
    "Legacy materials registry (2012–2019), read-only since MatDB replaced it: materials as they were first registered, without lots, artifacts or later revisions.",
  endpoints: [
    {
      name: "search",
      imitates: "materials.search",
      description:
        "Search the legacy registry by material name or grade; materials registered since 2020 are not found.",
      params: { query: str("material name or grade"), page_size: pageSize(50, 20) },
      required: ["query"],
      access: "read",
      outputs: [out("materials", "array", "legacy_id, material_id, name, registered_on")],
      replies: legacy.list("materials"),
    },
    {
      name: "retrieve",
      imitates: "materials.retrieve",
      description:
        "A material's record as first entered in the legacy registry: composition and supplier at registration, with the registrar's notes.",
      params: { material_id: MATERIAL_ID },
      required: ["material_id"],
      access: "read",
      outputs: [out("record", "object", "name, composition, supplier, registered_on, notes")],
      replies: legacy.get("material", "material_id"),
    },
  ],
};
