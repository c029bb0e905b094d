/**
 * Distractors from logistics and the workshop: shipping, the vehicle fleet and equipment
 * maintenance. Maintenance sounds like the instrument register; it is not.
 */
import { replyStyle } from "../reply-styles.ts";
import { date, instant, num, oneOf, out, str, type ToolSpec } from "../spec.ts";

const ship = replyStyle("google");
export const SHIPPING: ToolSpec = {
  tool: "shipping",
  description:
    "Outbound shipping desk: courier labels, rates and pickups for parcels and pallets leaving the site.",
  endpoints: [
    {
      name: "rates",
      description:
        "Courier rates and transit times for a parcel of a weight and size to a destination postcode.",
      params: {
        destination_postcode: str("postcode"),
        destination_country: str("ISO country code"),
        weight_kg: num("weight", { minimum: 0 }),
        dangerous_goods: oneOf(
          ["none", "un3373", "dry_ice", "limited_quantity"],
          "dangerous-goods class",
          "none",
        ),
      },
      required: ["destination_postcode", "destination_country", "weight_kg"],
      access: "read",
      outputs: [out("rates", "array", "carrier, service, price, currency, transit_days")],
      replies: ship.list("rates"),
    },
    {
      name: "create_label",
      description: "Buy a shipping label for a parcel with a chosen carrier service and book its pickup.",
      params: {
        carrier_service: str("carrier and service, e.g. 'DHL Express 12:00'"),
        recipient_address: str("full address"),
        weight_kg: num("weight", { minimum: 0 }),
        reference: str("your reference"),
      },
      required: ["carrier_service", "recipient_address", "weight_kg"],
      access: "write",
      outputs: [out("waybill", "string", "waybill number"), out("label_url", "string", "label PDF")],
      replies: ship.write({ waybill: "WB{@id}", labelUrl: "https://ship.lab.example/labels/{@id}.pdf" }),
    },
    {
      name: "track",
      description: "Carrier tracking events of an outbound waybill until delivery.",
      params: { waybill: str("waybill number") },
      required: ["waybill"],
      access: "read",
      outputs: [out("events", "array", "at, location, status")],
      replies: ship.get("waybill", "waybill"),
    },
    {
      name: "void_label",
      description:
        "Void an unused shipping label for a refund of its postage; the waybill can no longer be used.",
      params: { waybill: str("waybill number") },
      required: ["waybill"],
      access: "destructive",
      outputs: [out("voided", "boolean", "true")],
      replies: ship.write({ waybill: "{waybill}", voided: true }, ["waybill", "waybill"]),
    },
  ],
};

const fleet = replyStyle("jsonapi");
export const FLEET: ToolSpec = {
  tool: "fleet",
  description:
    "Fleet management: the site's pool vehicles, their bookings, positions, fuel and service dates.",
  endpoints: [
    {
      name: "vehicle",
      description:
        "A pool vehicle by plate: make, model, fuel type, odometer, next service and inspection dates.",
      params: { plate: str("registration plate") },
      required: ["plate"],
      access: "read",
      outputs: [out("vehicle", "object", "make, model, fuel, odometer_km, next_service, inspection_due")],
      replies: fleet.get("vehicle", "plate"),
    },
    {
      name: "vehicle_position",
      description: "Last GPS position and ignition state of a pool vehicle from its telematics box.",
      params: { plate: str("registration plate") },
      required: ["plate"],
      access: "read",
      outputs: [out("position", "object", "lat, lon, recorded_at, ignition")],
      replies: fleet.get("vehicle", "plate"),
    },
    {
      name: "book_vehicle",
      description: "Book a pool vehicle for a trip between two instants with destination and driver.",
      params: {
        plate: str("registration plate (omit for any free vehicle)"),
        start: instant("pickup"),
        end: instant("return"),
        driver: str("driver's employee number"),
        destination: str("destination"),
      },
      required: ["start", "end", "driver"],
      access: "write",
      outputs: [out("booking_ref", "string", "vehicle booking")],
      replies: fleet.write({ booking_ref: "VB-{@id}", driver: "{driver}" }),
    },
    {
      name: "fuel_log",
      description:
        "Fuel and charging entries of a vehicle in a period with litres or kWh, cost and odometer.",
      params: { plate: str("registration plate"), from_date: date("from"), to_date: date("to") },
      required: ["plate"],
      access: "read",
      outputs: [out("entries", "array", "date, quantity, unit, cost, odometer_km")],
      replies: fleet.list("entries"),
    },
  ],
};

const cmms = replyStyle("odata");
export const EQUIPMENT_MAINTENANCE: ToolSpec = {
  tool: "equipment_maintenance",
  description:
    "Maintenance management (CMMS) for plant and workshop equipment: service history, preventive maintenance plans and spare parts.",
  endpoints: [
    {
      name: "service_history",
      description:
        "Repairs and preventive services done on a piece of plant equipment, with technician, hours and parts replaced.",
      params: { equipment_no: str("equipment number, e.g. EQ-COMP-011") },
      required: ["equipment_no"],
      access: "read",
      outputs: [out("services", "array", "date, type, technician, hours, parts")],
      replies: cmms.get("equipment", "equipment_no"),
    },
    {
      name: "schedule_service",
      description: "Schedule a preventive or corrective service of plant equipment with the workshop.",
      params: {
        equipment_no: str("equipment number"),
        service_type: oneOf(["preventive", "corrective", "inspection"], "service type"),
        wanted_on: date("wanted date"),
      },
      required: ["equipment_no", "service_type"],
      access: "write",
      outputs: [out("service_order", "string", "service order")],
      replies: cmms.write({ serviceOrder: "SO-{@id}", equipmentNo: "{equipment_no}" }, [
        "equipment",
        "equipment_no",
      ]),
    },
    {
      name: "spare_parts",
      description: "Spare parts stocked for a piece of equipment with bin location and quantity on hand.",
      params: { equipment_no: str("equipment number") },
      required: ["equipment_no"],
      access: "read",
      outputs: [out("parts", "array", "part_no, description, bin, on_hand")],
      replies: cmms.list("parts"),
    },
  ],
};
