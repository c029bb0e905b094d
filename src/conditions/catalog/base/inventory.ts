/**
 * The chemical and materials stock (StockRoom): containers on the shelves, their quantities, lots,
 * locations and hazard classes; reservations, disposal and deletion. Offset/limit pagination;
 * errors as a Spring service writes them: `{status, error, message, path}`.
 */
import { date, int, num, oneOf, out, str, type ToolSpec } from "../spec.ts";

const ITEM_ID = str("container identifier, e.g. CHM-00412");
const INVALID = { status: 400, error: "Bad Request", message: "{@message}", path: "/containers" };
const UNKNOWN_ITEM = {
  status: 404,
  error: "Not Found",
  message: "container {item_id} does not exist",
  path: "/containers/{item_id}",
};

export const INVENTORY: ToolSpec = {
  tool: "inventory",
  description:
    "Chemical and materials stock (StockRoom): containers on the shelves with quantity, lot, location, hazard class and expiry; reserve stock, record disposal, or delete a mistaken record.",
  endpoints: [
    {
      name: "list",
      description:
        "List stock containers filtered by location, CAS number, hazard class, status or expiry, with quantity remaining, lot and location, paged by offset and limit.",
      params: {
        location: str("storage location, e.g. 'cold room B-110' or 'flammables cabinet F3'"),
        cas_number: str("only containers of this substance, by CAS registry number, e.g. 67-64-1"),
        hazard_class: oneOf(
          ["flammable", "corrosive", "oxidizer", "toxic", "compressed_gas", "pyrophoric", "none"],
          "only containers of this hazard class",
        ),
        status: oneOf(
          ["available", "reserved", "quarantined", "expired", "disposed"],
          "only containers in this status",
        ),
        expires_before: date("only containers expiring before this date"),
        offset: int("number of containers to skip (default 0)", { minimum: 0, default: 0 }),
        limit: int("containers per page, 1–200 (default 50)", { minimum: 1, maximum: 200, default: 50 }),
      },
      required: [],
      access: "read",
      outputs: [
        out(
          "items",
          "array",
          "item_id, substance, cas_number, lot, quantity, unit, location, status, expires_on",
        ),
        out("total", "integer", "number of containers that match"),
        out("offset", "integer", "offset of this page"),
      ],
      replies: {
        empty: { items: [], total: 0, offset: "{offset}", limit: "{limit}" },
        validation_error: INVALID,
      },
    },
    {
      name: "item",
      description:
        "Get one container's record by item id: substance, CAS number, grade, lot, supplier, quantity remaining with its unit, location, opened and expiry dates, and open reservations.",
      params: { item_id: ITEM_ID },
      required: ["item_id"],
      access: "read",
      outputs: [
        out(
          "item",
          "object",
          "substance, cas_number, grade, lot, supplier, quantity, unit, location, opened_on, expires_on",
        ),
        out("reservations", "array", "reservation_id, quantity, unit, reserved_for, until"),
        out("source_id", "string", "identifier of the container record"),
      ],
      replies: { not_found: UNKNOWN_ITEM, validation_error: INVALID },
    },
    {
      name: "reserve",
      description:
        "Reserve a quantity of a container's stock for a project or person until a date, so nobody else draws it; returns the reservation.",
      params: {
        item_id: ITEM_ID,
        quantity: num("quantity to reserve", { minimum: 0 }),
        unit: oneOf(["mg", "g", "kg", "mL", "L", "each"], "unit of the quantity"),
        reserved_for: str("project code or person the stock is held for"),
        until: date("date the reservation lapses (default: 14 days)"),
      },
      required: ["item_id", "quantity", "unit", "reserved_for"],
      access: "write",
      outputs: [
        out("reservation_id", "string", "identifier of the reservation"),
        out("state", "string", "held, or waitlisted when stock is short"),
      ],
      replies: {
        success: {
          reservation_id: "RSV-{@id}",
          item_id: "{item_id}",
          quantity: "{quantity}",
          unit: "{unit}",
          reserved_for: "{reserved_for}",
          state: "held",
        },
        not_found: UNKNOWN_ITEM,
        validation_error: INVALID,
      },
    },
    {
      name: "dispose",
      description:
        "Record a container as disposed of and hand it to a waste stream: its remaining stock is written off and it can no longer be reserved or drawn.",
      params: {
        item_id: ITEM_ID,
        reason: oneOf(["expired", "contaminated", "empty", "surplus", "damaged"], "why it is disposed of"),
        waste_stream: oneOf(
          [
            "solvent_halogenated",
            "solvent_non_halogenated",
            "aqueous_acid",
            "aqueous_base",
            "solid_chemical",
            "heavy_metal",
            "general",
          ],
          "waste stream it goes to",
        ),
      },
      required: ["item_id", "reason"],
      access: "destructive",
      outputs: [
        out("item_id", "string", "the container disposed of"),
        out("status", "string", "disposed"),
        out("written_off", "number", "quantity written off, in the container's unit"),
      ],
      replies: {
        success: {
          item_id: "{item_id}",
          status: "disposed",
          reason: "{reason}",
          waste_stream: "{waste_stream}",
        },
        not_found: UNKNOWN_ITEM,
        validation_error: INVALID,
      },
    },
    {
      name: "delete",
      description:
        "Delete a container record entered by mistake (a duplicate or a wrong receipt): the record and its movement history are removed from the register for good.",
      params: { item_id: ITEM_ID, justification: str("why the record is wrong, kept in the audit log") },
      required: ["item_id"],
      access: "destructive",
      outputs: [out("item_id", "string", "the record deleted"), out("status", "string", "deleted")],
      replies: {
        success: { item_id: "{item_id}", status: "deleted" },
        not_found: UNKNOWN_ITEM,
        validation_error: INVALID,
      },
    },
  ],
};
