/**
 * The instrument register (MetroLab): the laboratory's instruments, their calibration certificates
 * and the readings of their channels. Errors are `{ok: false, error: <snake_case code>, detail}`.
 */
import { bool, date, instant, oneOf, out, pageSize, pageToken, str, type ToolSpec } from "../spec.ts";

const INSTRUMENT_ID = str("instrument identifier, e.g. INS-TC-0412");
const INVALID = { ok: false, error: "invalid_arguments", detail: "{@message}" };
const UNKNOWN_INSTRUMENT = {
  ok: false,
  error: "instrument_not_found",
  detail: "no instrument '{instrument_id}' in the register",
};

export const INSTRUMENTS: ToolSpec = {
  tool: "instruments",
  description:
    "Instrument register (MetroLab): the laboratory's instruments and sensors, their calibration certificates and the time-stamped readings of their channels.",
  endpoints: [
    {
      name: "list",
      description:
        "List registered instruments with type, location, status and calibration due date, filtered by type, location or status.",
      params: {
        instrument_type: oneOf(
          [
            "thermocouple",
            "rtd",
            "pressure_transducer",
            "humidity_sensor",
            "balance",
            "tensile_frame",
            "hardness_tester",
            "dsc",
            "tga",
            "furnace",
            "spectrometer",
            "particle_counter",
          ],
          "only instruments of this type",
        ),
        location: str("building and room, e.g. 'B2-114'"),
        status: oneOf(
          ["in_service", "due_for_calibration", "out_of_service", "quarantined"],
          "only instruments in this status",
        ),
        page_size: pageSize(100, 25),
        page_token: pageToken(),
      },
      required: [],
      access: "read",
      outputs: [
        out("instruments", "array", "instrument_id, type, model, location, status, calibration_due"),
        out("next_page_token", "string", "token of the next page, null on the last"),
      ],
      replies: { empty: { ok: true, instruments: [], next_page_token: null }, validation_error: INVALID },
    },
    {
      name: "retrieve",
      description:
        "Get one instrument's record: make, model, serial number, measuring range, resolution, its channels with their units, owner and location.",
      params: { instrument_id: INSTRUMENT_ID },
      required: ["instrument_id"],
      access: "read",
      outputs: [
        out("instrument", "object", "make, model, serial_number, range, resolution, owner, location"),
        out("channels", "array", "channel name, quantity and unit"),
      ],
      replies: { not_found: UNKNOWN_INSTRUMENT, validation_error: INVALID },
    },
    {
      name: "calibration",
      description:
        "Calibration certificates of an instrument, newest first: certificate number, date, calibration laboratory, reference standard, as-found and as-left offsets, expanded uncertainty and validity.",
      params: {
        instrument_id: INSTRUMENT_ID,
        valid_on: date("only the certificate valid on this date"),
        include_superseded: bool("also return superseded certificates (default false)", false),
      },
      required: ["instrument_id"],
      access: "read",
      outputs: [
        out(
          "certificates",
          "array",
          "certificate_no, calibrated_on, valid_until, laboratory, reference, points (nominal, as_found, as_left, offset, uncertainty, unit)",
        ),
        out("source_id", "string", "identifier of the certificate set"),
      ],
      replies: {
        not_found: UNKNOWN_INSTRUMENT,
        empty: { ok: true, instrument_id: "{instrument_id}", certificates: [] },
        validation_error: INVALID,
        unmatched: "not_found",
      },
    },
    {
      name: "readings",
      description:
        "Time-stamped readings of an instrument's channels between two instants, raw or averaged, with each channel's unit; temperatures in the requested temperature unit.",
      params: {
        instrument_id: INSTRUMENT_ID,
        channel: str("channel name, e.g. 'ch1', 'chamber_temp', 'rh' (omit for every channel)"),
        start: instant("first instant, ISO 8601 (default: 24 hours before end)"),
        end: instant("last instant, ISO 8601 (default: now)"),
        aggregation: oneOf(
          ["raw", "mean_1min", "mean_10min", "mean_1h"],
          "raw samples or means over fixed windows (default raw)",
          "raw",
        ),
        temperature_unit: oneOf(["degC", "K", "degF"], "unit of temperature channels (default degC)", "degC"),
        page_size: pageSize(1000, 200),
        page_token: pageToken(),
      },
      required: ["instrument_id"],
      access: "read",
      outputs: [
        out("readings", "array", "timestamp, channel, value, unit, flag"),
        out("next_page_token", "string", "token of the next page, null on the last"),
        out("source_id", "string", "identifier of the reading series"),
      ],
      replies: {
        not_found: UNKNOWN_INSTRUMENT,
        empty: {
          ok: true,
          instrument_id: "{instrument_id}",
          start: "{start}",
          end: "{end}",
          readings: [],
          next_page_token: null,
        },
        validation_error: INVALID,
      },
    },
  ],
};
