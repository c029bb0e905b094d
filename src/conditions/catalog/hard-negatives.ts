/**
 * Hard negatives: distractor endpoints a router can mistake for a canonical one. Each shares the
 * vocabulary of a base endpoint — the same resource, the same quantity words, the same parameter
 * names — and each says, for a careful reader, why it is not the canonical source: an archived
 * snapshot, a deprecated API version, a delayed regional replica, nominal datasheet values instead
 * of measurements, a simulation, a neighbouring quantity, a sandbox. Written as data, one line per
 * endpoint; the catalog builder interleaves them with the generic distractors.
 */
import type { Endpoint, EndpointOutput } from "./schema.ts";

type Param = { type: "string" | "integer" | "number"; description: string };
interface Spec {
  readonly route: string;
  readonly tool: string;
  readonly text: string;
  readonly params: Record<string, string>;
  readonly outputs: Record<string, string>;
  readonly write?: boolean;
}

const MATERIAL = "material identifier";
const PROPS = "measured mechanical, thermal and electrical properties of materials";

/** Route `{tool}.{endpoint}`, the tool's description, the endpoint's description, parameters and output names. */
export const HARD_NEGATIVES: readonly Spec[] = [
  {
    route: "materials_archive.current",
    tool: `Read-only archive of the materials database as frozen in the 2019 snapshot: ${PROPS}, never updated since.`,
    text: "Property values of a material as they stood in the 2019 archive snapshot; later measurements are not included.",
    params: { material_id: MATERIAL, property: "property name" },
    outputs: { value: "archived value" },
  },
  {
    route: "materials_v1.current",
    tool: "Deprecated v1 of the materials property API, kept for old integrations; scheduled for removal.",
    text: "Deprecated: current property value of a material from the v1 schema (Young's modulus and density only, no test records).",
    params: { material_id: MATERIAL },
    outputs: { youngs_modulus: "v1 field", density: "v1 field" },
  },
  {
    route: "materials_nominal.lookup",
    tool: "Supplier datasheets: nominal property values declared by suppliers for material grades.",
    text: "Nominal (datasheet) property of a material grade as declared by its supplier — not a measured value and not a test record.",
    params: { material_id: MATERIAL, property: "property name" },
    outputs: { nominal_value: "declared nominal value" },
  },
  {
    route: "materials_sim.predict",
    tool: "Materials simulation service: properties predicted by a machine-learned surrogate model.",
    text: "Predicted current property value of a material from the surrogate model; a prediction, not a measurement.",
    params: { material_id: MATERIAL, property: "property name" },
    outputs: { predicted_value: "model prediction" },
  },
  {
    route: "materials_eu.current",
    tool: "EU regional replica of the materials property database, synchronised with a 24-hour delay.",
    text: "Current measured property of a material from the EU replica (may lag the primary database by a day).",
    params: { material_id: MATERIAL, property: "property name" },
    outputs: { value: "replicated value" },
  },
  {
    route: "materials_archive.history",
    tool: `Read-only archive of the materials database as frozen in the 2019 snapshot: ${PROPS}, never updated since.`,
    text: "Historical series of a material property up to the 2019 snapshot, oldest first; nothing later.",
    params: { material_id: MATERIAL, property: "property name" },
    outputs: { series: "archived series" },
  },
  {
    route: "materials_v1.history",
    tool: "Deprecated v1 of the materials property API, kept for old integrations; scheduled for removal.",
    text: "Deprecated: Young's modulus history of a material in the v1 format, yearly averages only.",
    params: { material_id: MATERIAL },
    outputs: { historical_youngs_modulus: "v1 yearly averages" },
  },
  {
    route: "materials_sim.forecast",
    tool: "Materials simulation service: properties predicted by a machine-learned surrogate model.",
    text: "Scenario forecast of a material property under an assumed ageing model; not a measurement.",
    params: { material_id: MATERIAL, property: "property name" },
    outputs: { forecast: "scenario forecast" },
  },
  {
    route: "materials_shear.current",
    tool: "Shear-test laboratory records: shear modulus and shear strength of materials.",
    text: "Current measured shear modulus (G) of a material — a neighbouring quantity, not Young's modulus.",
    params: { material_id: MATERIAL },
    outputs: { shear_modulus: "shear modulus G" },
  },
  {
    route: "materials_registry_legacy.retrieve",
    tool: "Legacy materials registry (pre-2020), read-only; superseded by the materials database.",
    text: "Legacy registry record of a material: composition and supplier as first registered; no data artifacts.",
    params: { material_id: MATERIAL },
    outputs: { supplier: "supplier at first registration" },
  },
  {
    route: "materials_catalog.search",
    tool: "Supplier catalogue of purchasable material grades.",
    text: "Search the supplier catalogue for material grades to buy by name or composition (catalogue numbers, not registered materials).",
    params: { query: "grade or composition" },
    outputs: { catalogue_numbers: "supplier catalogue numbers" },
  },
  {
    route: "papers_preprints.retrieve",
    tool: "Preprint mirror: unreviewed manuscripts, text may differ from the published paper.",
    text: "Retrieve the preprint text of a paper — an earlier, unreviewed version, not the published findings.",
    params: { paper_id: "paper identifier" },
    outputs: { finding: "preprint text" },
  },
  {
    route: "papers_ai.summarize",
    tool: "Writing assistant: generated digests of literature.",
    text: "Generate a plain-language summary of a paper's findings; generated text, not a quotation.",
    params: { paper_id: "paper identifier" },
    outputs: { summary: "generated summary" },
  },
  {
    route: "papers_index_legacy.search",
    tool: "Legacy literature index (frozen in 2018).",
    text: "Search the frozen 2018 literature index by free-text query; newer papers are missing.",
    params: { query: "free-text search terms" },
    outputs: { paper_ids: "paper identifiers up to 2018" },
  },
  {
    route: "papers_refs.citations",
    tool: "Reference manager: citations as users typed them into their libraries.",
    text: "User-entered citation of a paper (DOI and year as typed by a user; unverified).",
    params: { paper_id: "paper identifier" },
    outputs: { doi: "user-entered DOI", publication_year: "user-entered year" },
  },
  {
    route: "papers_translate.retrieve",
    tool: "Machine translation of papers.",
    text: "Retrieve a machine translation of a paper's text into another language; wording differs from the original.",
    params: { paper_id: "paper identifier", target_language: "ISO language code" },
    outputs: { translated_text: "machine translation" },
  },
  {
    route: "instruments_legacy.calibration",
    tool: "Legacy instrument register (before the 2022 metrology migration).",
    text: "Calibration certificate of an instrument as recorded before the 2022 migration; newer calibrations are not included.",
    params: { instrument_id: "instrument identifier" },
    outputs: { calibration_offset: "offset at the old calibration" },
  },
  {
    route: "instruments_sim.readings",
    tool: "Instrument simulator for training and tests.",
    text: "Simulated readings of an instrument's channels for training sessions — not real measurements.",
    params: { instrument_id: "instrument identifier", channel: "channel name" },
    outputs: { reading: "simulated reading" },
  },
  {
    route: "instruments_schedule.calibration",
    tool: "Metrology planning: upcoming calibration appointments.",
    text: "When an instrument's next calibration is scheduled (planning only; no results or offsets).",
    params: { instrument_id: "instrument identifier" },
    outputs: { next_calibration: "planned date" },
  },
  {
    route: "instruments_daily.readings",
    tool: "Daily aggregates of instrument readings.",
    text: "Daily mean of an instrument channel's readings (aggregated, not the latest reading).",
    params: { instrument_id: "instrument identifier", channel: "channel name" },
    outputs: { daily_mean: "daily mean reading" },
  },
  {
    route: "inventory_snapshot.list",
    tool: "Nightly inventory snapshot (yesterday's stock, read-only).",
    text: "List inventory items as of last night's snapshot; today's movements are not included.",
    params: { location: "storage location" },
    outputs: { items: "items as of yesterday" },
  },
  {
    route: "inventory_requests.create",
    tool: "Purchase requests for new stock.",
    text: "Request the purchase of a new inventory item (creates a request, not stock).",
    params: { item_name: "item name", quantity: "number of units" },
    outputs: { request_id: "purchase request" },
    write: true,
  },
  {
    route: "inventory_archive.delete",
    tool: "Inventory archive maintenance.",
    text: "Permanently purge an archived inventory record. Destructive: cannot be undone.",
    params: { item_id: "item identifier" },
    outputs: { status: "purge status" },
    write: true,
  },
  {
    route: "exports_legacy.export",
    tool: "Legacy export service (v1), read-only mirror of old jobs; new exports are refused.",
    text: "Look up a data artifact's export from the legacy v1 service; it no longer runs new exports.",
    params: { artifact_id: "artifact identifier" },
    outputs: { file_uri: "old export location" },
  },
  {
    route: "exports_preview.export",
    tool: "Export previews for quick looks.",
    text: "Render a preview of a data artifact (first 100 rows, temporary link that expires in an hour); not an export.",
    params: { artifact_id: "artifact identifier", format: "file format" },
    outputs: { preview_uri: "temporary preview link" },
  },
  {
    route: "exports_queue.status",
    tool: "Export queue monitor.",
    text: "Position of an export job in the queue (waiting jobs only; finished jobs are not shown).",
    params: { job_id: "export job identifier" },
    outputs: { queue_position: "position in the queue" },
  },
  {
    route: "exports_schedule.export",
    tool: "Scheduled exports.",
    text: "Schedule a recurring export of a data artifact for later (runs nightly; nothing is exported now).",
    params: { artifact_id: "artifact identifier", format: "file format" },
    outputs: { schedule_id: "schedule identifier" },
    write: true,
  },
  {
    route: "runtime_sandbox.execute",
    tool: "Sandbox runtimes for trying commands, reset every hour.",
    text: "Execute a command in a disposable sandbox copy of a runtime; results are not published.",
    params: { runtime_id: "runtime identifier", command: "command line" },
    outputs: { exit_code: "sandbox exit code" },
    write: true,
  },
  {
    route: "runtime_status.restart",
    tool: "Runtime monitor.",
    text: "Report when an analysis runtime last restarted (read-only; does not restart it).",
    params: { runtime_id: "runtime identifier" },
    outputs: { last_restart: "time of the last restart" },
  },
  {
    route: "messaging_drafts.send",
    tool: "Message drafts.",
    text: "Save a message to a recipient as a draft (not sent).",
    params: { recipient: "recipient e-mail address", message: "message text" },
    outputs: { draft_id: "draft identifier" },
    write: true,
  },
  {
    route: "messaging_public.share",
    tool: "Public links.",
    text: "Publish an artifact at a public link anyone can open (not shared with a named recipient).",
    params: { artifact_id: "artifact identifier" },
    outputs: { public_uri: "public link" },
    write: true,
  },
  {
    route: "credits_estimate.create",
    tool: "Credit estimates.",
    text: "Estimate what a credit grant to an account would cost (nothing is issued).",
    params: { account_id: "account identifier", amount: "credit amount in USD" },
    outputs: { estimate: "estimated cost" },
  },
];

const param = (description: string): Param => ({
  type: /quantity|amount/.test(description) ? "number" : "string",
  description,
});

export function hardNegativeEndpoint(spec: Spec): Endpoint {
  const [tool, endpoint] = spec.route.split(".") as [string, string];
  const outputs: EndpointOutput[] = Object.entries(spec.outputs).map(([name, description]) => ({
    name,
    type: "string",
    unit: null,
    description,
  }));
  return {
    route_id: spec.route,
    tool,
    endpoint,
    function_name: `${tool}__${endpoint}`,
    tool_description: spec.tool,
    description: spec.text,
    parameters: {
      type: "object",
      properties: Object.fromEntries(Object.entries(spec.params).map(([k, v]) => [k, param(v)])),
      required: Object.keys(spec.params).slice(0, 1),
      additionalProperties: false,
    },
    read_only: spec.write !== true,
    destructive: /Destructive/.test(spec.text),
    outputs,
  };
}
