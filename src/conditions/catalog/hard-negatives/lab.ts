/**
 * Hard negatives of the instrument register, the LIMS and the stock register: an old register, a
 * simulator, a planner, daily roll-ups, a finance asset register, a retired LIMS, a training
 * instance, a courier's tracking, a nightly snapshot, an archive purge, a waste pickup and a
 * requisition service — same ids, same words, other data.
 */
import { replyStyle } from "../reply-styles.ts";
import { date, instant, int, num, oneOf, out, str, type ToolSpec } from "../spec.ts";

const INSTRUMENT_ID = str("instrument identifier, e.g. INS-TC-0412");
const SAMPLE_ID = str("LIMS sample identifier, e.g. S-2026-04417");
const ITEM_ID = str("container identifier, e.g. CHM-00412");

const oldRegister = replyStyle("fault");
export const INSTRUMENTS_LEGACY: ToolSpec = {
  tool: "instruments_legacy",
  description:
    "Legacy instrument register used before the 2022 metrology migration; read-only, nothing added since.",
  endpoints: [
    {
      name: "calibration",
      imitates: "instruments.calibration",
      description:
        "Calibration certificates of an instrument recorded before the 2022 migration, with offsets and uncertainties; certificates issued since are not in it.",
      params: { instrument_id: INSTRUMENT_ID },
      required: ["instrument_id"],
      access: "read",
      outputs: [out("certificates", "array", "certificate_no, calibrated_on, offset, uncertainty, unit")],
      replies: oldRegister.get("instrument", "instrument_id"),
    },
  ],
};

const simulator = replyStyle("google");
export const INSTRUMENT_SIMULATOR: ToolSpec = {
  tool: "instrument_simulator",
  description:
    "Instrument simulator for operator training and software tests: synthetic channels that behave like the laboratory's real instruments.",
  endpoints: [
    {
      name: "readings",
      imitates: "instruments.readings",
      description:
        "Simulated readings of an instrument's channels over a time range, generated from a noise model for training sessions — not measured by the instrument.",
      params: {
        instrument_id: INSTRUMENT_ID,
        channel: str("channel name"),
        start: instant("first instant"),
        end: instant("last instant"),
        temperature_unit: oneOf(["degC", "K", "degF"], "unit of temperature channels"),
      },
      required: ["instrument_id"],
      access: "read",
      outputs: [
        out("readings", "array", "timestamp, channel, value, unit"),
        out("scenario", "string", "simulation scenario"),
      ],
      replies: simulator.list("readings"),
    },
  ],
};

const planner = replyStyle("spring");
export const METROLOGY_PLANNER: ToolSpec = {
  tool: "metrology_planner",
  description:
    "Metrology planning: the calibration schedule of every instrument and the service providers booked for it.",
  endpoints: [
    {
      name: "calibration_schedule",
      imitates: "instruments.calibration",
      description:
        "When an instrument's next calibration is planned, with which provider and at what cost; planning data only, no results, offsets or certificates.",
      params: { instrument_id: INSTRUMENT_ID, year: int("planning year (default the current one)") },
      required: ["instrument_id"],
      access: "read",
      outputs: [out("planned", "array", "due_on, provider, cost, status")],
      replies: planner.get("instrument plan", "instrument_id"),
    },
  ],
};

const rollup = replyStyle("odata");
export const READINGS_ROLLUP: ToolSpec = {
  tool: "readings_rollup",
  description: "Daily roll-ups of instrument readings for the building dashboards.",
  endpoints: [
    {
      name: "daily",
      imitates: "instruments.readings",
      description:
        "Daily minimum, mean and maximum of an instrument channel, one row per calendar day; the individual readings and their times are not kept here.",
      params: {
        instrument_id: INSTRUMENT_ID,
        channel: str("channel name"),
        from_date: date("first day"),
        to_date: date("last day"),
      },
      required: ["instrument_id"],
      access: "read",
      outputs: [out("days", "array", "day, min, mean, max, unit, count")],
      replies: rollup.list("days"),
    },
  ],
};

const assets = replyStyle("jsonapi");
export const ASSET_REGISTER: ToolSpec = {
  tool: "asset_register",
  description:
    "Finance asset register: purchase records of equipment for depreciation, insurance and audits.",
  endpoints: [
    {
      name: "asset",
      imitates: "instruments.retrieve",
      description:
        "The purchase record of an instrument as a fixed asset: supplier, price, purchase date, cost centre and book value; no measuring range, channels or calibration.",
      params: { instrument_id: str("instrument or asset tag, e.g. INS-TC-0412") },
      required: ["instrument_id"],
      access: "read",
      outputs: [out("asset", "object", "asset_tag, supplier, price, purchased_on, cost_centre, book_value")],
      replies: assets.get("asset", "instrument_id"),
    },
  ],
};

const retired = replyStyle("fault");
export const LIMS_LEGACY: ToolSpec = {
  tool: "lims_legacy",
  description:
    "The previous LIMS, retired in 2023 and read-only; samples and corrections since the migration live in the current LIMS.",
  endpoints: [
    {
      name: "results",
      imitates: "samples.results",
      description:
        "Test results of a sample as the retired LIMS held them at migration; results approved, corrected or voided afterwards are not reflected.",
      params: { sample_id: SAMPLE_ID, test_code: str("only this test code") },
      required: ["sample_id"],
      access: "read",
      outputs: [out("results", "array", "test_code, analyte, value, unit, status, reported_on")],
      replies: retired.get("legacy sample", "sample_id"),
    },
  ],
};

const training = replyStyle("graphql");
export const LIMS_TRAINING: ToolSpec = {
  tool: "lims_training",
  description:
    "LIMS training instance: sample records copied from production for staff training, refreshed monthly and edited freely by trainees.",
  endpoints: [
    {
      name: "retrieve",
      imitates: "samples.retrieve",
      description:
        "A sample's record on the training instance: last month's copy, possibly edited in exercises, with the trainee who last changed it.",
      params: { sample_id: SAMPLE_ID },
      required: ["sample_id"],
      access: "read",
      outputs: [out("sample", "object", "description, material_id, lot, status, edited_by")],
      replies: training.get("training sample", "sample_id"),
    },
  ],
};

const courier = replyStyle("slack");
export const COURIER_TRACKING: ToolSpec = {
  tool: "courier_tracking",
  description:
    "Courier tracking: parcel scans reported by the courier companies the laboratory ships samples with.",
  endpoints: [
    {
      name: "shipment_events",
      imitates: "samples.custody",
      description:
        "Tracking scans of a parcel by the courier (picked up, in transit, out for delivery, delivered), by sample or waybill; not the laboratory's signed chain of custody.",
      params: { sample_id: str("sample id or waybill number the parcel carries") },
      required: ["sample_id"],
      access: "read",
      outputs: [out("scans", "array", "at, depot, scan_type")],
      replies: courier.get("shipment", "sample_id"),
    },
  ],
};

const snapshot = replyStyle("spring");
export const INVENTORY_SNAPSHOT: ToolSpec = {
  tool: "inventory_snapshot",
  description: "Nightly stock snapshot: yesterday's StockRoom register, read-only, for reports and audits.",
  endpoints: [
    {
      name: "list",
      imitates: "inventory.list",
      description:
        "List stock containers as of last night's snapshot by location or CAS number; reservations, draws and disposals since midnight are not reflected.",
      params: {
        location: str("storage location"),
        cas_number: str("CAS registry number"),
        offset: int("containers to skip", { minimum: 0, default: 0 }),
        limit: int("containers per page", { minimum: 1, maximum: 200, default: 50 }),
      },
      required: [],
      access: "read",
      outputs: [
        out("items", "array", "item_id, substance, lot, quantity, unit, location"),
        out("snapshot_at", "string", "time of the snapshot"),
      ],
      replies: snapshot.list("items"),
    },
    {
      name: "item",
      imitates: "inventory.item",
      description:
        "One container's record as it stood at last night's snapshot, quantity and reservations included.",
      params: { item_id: ITEM_ID },
      required: ["item_id"],
      access: "read",
      outputs: [out("item", "object", "substance, lot, quantity, unit, location, status")],
      replies: snapshot.get("container", "item_id"),
    },
  ],
};

const purge = replyStyle("problem");
export const INVENTORY_ARCHIVE: ToolSpec = {
  tool: "inventory_archive",
  description:
    "Stock archive maintenance: containers closed out more than a year ago, past their retention period.",
  endpoints: [
    {
      name: "purge",
      imitates: "inventory.delete",
      description:
        "Permanently purge an archived container record past its retention period, with its archived movements; live containers are refused.",
      params: { item_id: ITEM_ID, confirm: str("type PURGE to confirm") },
      required: ["item_id", "confirm"],
      access: "destructive",
      outputs: [out("purged", "boolean", "true when the record is gone")],
      replies: purge.write({ item_id: "{item_id}", purged: true }, ["archived container", "item_id"]),
    },
  ],
};

const ehs = replyStyle("google");
export const WASTE_PICKUP: ToolSpec = {
  tool: "waste_pickup",
  description:
    "EHS waste collection: scheduled pickups of chemical waste from the laboratories by the environment, health and safety team.",
  endpoints: [
    {
      name: "request_pickup",
      imitates: "inventory.dispose",
      description:
        "Ask EHS to collect waste containers from a lab on a date; it schedules a pickup and does not record any container as disposed of in the stock register.",
      params: {
        item_id: str("container to collect"),
        location: str("lab the pickup is from"),
        pickup_date: date("requested pickup date"),
        waste_stream: oneOf(
          ["solvent_halogenated", "solvent_non_halogenated", "aqueous", "solid_chemical"],
          "waste stream",
        ),
      },
      required: ["item_id", "location"],
      access: "write",
      outputs: [
        out("pickup_id", "string", "identifier of the pickup"),
        out("scheduled_for", "string", "date of the pickup"),
      ],
      replies: ehs.write({ pickup_id: "PU-{@id}", item_id: "{item_id}", state: "scheduled" }),
    },
  ],
};

const stores = replyStyle("odata");
export const CENTRAL_STORES: ToolSpec = {
  tool: "central_stores",
  description: "Central stores requisitions: draw stock from the site's central store for delivery to a lab.",
  endpoints: [
    {
      name: "requisition",
      imitates: "inventory.reserve",
      description:
        "Requisition an item from central stores for delivery to a lab; it orders new stock to be issued and does not hold an existing container.",
      params: {
        item_id: str("central-store item number or container id"),
        quantity: num("quantity wanted", { minimum: 0 }),
        unit: oneOf(["g", "kg", "mL", "L", "each"], "unit of the quantity"),
        deliver_to: str("lab the stock is delivered to"),
      },
      required: ["item_id", "quantity", "unit"],
      access: "write",
      outputs: [out("requisition_id", "string", "identifier of the requisition")],
      replies: stores.write({ requisition_id: "REQ-{@id}", status: "submitted" }),
    },
  ],
};
