/**
 * Distractors from the site's facilities: maintenance work orders, the building management
 * system, door access, visitors, parking, the canteen, energy metering and the site weather
 * station — services a laboratory uses every day that hold no materials data.
 */
import { replyStyle } from "../reply-styles.ts";
import {
  bool,
  date,
  instant,
  int,
  num,
  oneOf,
  out,
  pageSize,
  pageToken,
  str,
  type ToolSpec,
} from "../spec.ts";

const wo = replyStyle("jsonapi");
export const FACILITIES: ToolSpec = {
  tool: "facilities",
  description:
    "Facilities maintenance desk: work orders for buildings, rooms and building services, from fault report to completion.",
  endpoints: [
    {
      name: "create_work_order",
      description:
        "Report a building fault (leak, lighting, door, fume cupboard airflow, …) as a work order for the maintenance team, with room and priority.",
      params: {
        room: str("building and room, e.g. 'B2-114'"),
        category: oneOf(
          ["plumbing", "electrical", "hvac", "doors_locks", "fume_cupboard", "cleaning", "other"],
          "kind of fault",
        ),
        summary: str("what is wrong"),
        priority: oneOf(["low", "normal", "urgent"], "how soon it must be fixed (default normal)", "normal"),
      },
      required: ["room", "category", "summary"],
      access: "write",
      outputs: [
        out("work_order_id", "string", "identifier of the work order"),
        out("state", "string", "open"),
      ],
      replies: wo.write({ work_order_id: "WO-{@id}", room: "{room}", state: "open" }),
    },
    {
      name: "work_order",
      description:
        "Get one maintenance work order: room, category, assigned technician, state, visits and the parts used.",
      params: { work_order_id: str("work order identifier, e.g. WO-55120") },
      required: ["work_order_id"],
      access: "read",
      outputs: [out("work_order", "object", "room, category, technician, state, visits, parts")],
      replies: wo.get("work order", "work_order_id"),
    },
    {
      name: "list_work_orders",
      description: "List maintenance work orders of a building or room, open or closed, newest first.",
      params: {
        building: str("building code, e.g. 'B2'"),
        room: str("only this room"),
        state: oneOf(["open", "scheduled", "in_progress", "closed"], "only work orders in this state"),
        page_size: pageSize(100, 25),
        page_token: pageToken(),
      },
      required: [],
      access: "read",
      outputs: [out("work_orders", "array", "work_order_id, room, category, state, opened_at")],
      replies: wo.list("work_orders"),
    },
    {
      name: "cancel_work_order",
      description:
        "Withdraw a work order that is no longer needed; the technician's visit is cancelled and the order is closed unresolved.",
      params: { work_order_id: str("work order identifier"), reason: str("why it is withdrawn") },
      required: ["work_order_id"],
      access: "destructive",
      outputs: [out("state", "string", "closed_cancelled")],
      replies: wo.write({ work_order_id: "{work_order_id}", state: "closed_cancelled" }, [
        "work order",
        "work_order_id",
      ]),
    },
  ],
};

const doors = replyStyle("fault");
export const ACCESS_CONTROL: ToolSpec = {
  tool: "access_control",
  description:
    "Door access control: badge permissions for buildings and restricted rooms, and the door event log.",
  endpoints: [
    {
      name: "grant_access",
      description:
        "Give a person's badge access to a door group for a period, e.g. the clean room or the gas store, subject to the room owner's approval.",
      params: {
        badge_id: str("badge number"),
        door_group: str("door group, e.g. 'CLEANROOM-B1'"),
        valid_until: date("last day the access works"),
      },
      required: ["badge_id", "door_group"],
      access: "write",
      outputs: [
        out("grant_id", "string", "identifier of the grant"),
        out("state", "string", "pending_approval"),
      ],
      replies: doors.write({ grant_id: "GR-{@id}", badge_id: "{badge_id}", state: "pending_approval" }),
    },
    {
      name: "door_log",
      description:
        "Badge events at a door between two instants: who badged, when, and whether the door opened.",
      params: {
        door_id: str("door identifier, e.g. 'B1-CR-02'"),
        from: instant("first instant"),
        to: instant("last instant"),
      },
      required: ["door_id"],
      access: "read",
      outputs: [out("events", "array", "at, badge_id, holder, granted")],
      replies: doors.list("events"),
    },
  ],
};

const bms = replyStyle("odata");
export const BUILDING_MANAGEMENT: ToolSpec = {
  tool: "building_management",
  description:
    "Building management system: heating, ventilation and air-conditioning zones, their setpoints and alarms.",
  endpoints: [
    {
      name: "zone_setpoint",
      description:
        "Temperature and humidity setpoints of an HVAC zone and its occupancy schedule, as the building management system holds them.",
      params: { zone_id: str("HVAC zone, e.g. 'B2-L1-Z04'") },
      required: ["zone_id"],
      access: "read",
      outputs: [out("setpoints", "object", "temperature_setpoint, humidity_setpoint, unit, schedule")],
      replies: bms.get("zone", "zone_id"),
    },
    {
      name: "set_zone_setpoint",
      description:
        "Change the temperature setpoint of an HVAC zone within the limits the energy manager allows; the change is logged.",
      params: {
        zone_id: str("HVAC zone"),
        temperature: num("new setpoint"),
        unit: oneOf(["degC", "degF"], "unit of the setpoint", "degC"),
      },
      required: ["zone_id", "temperature"],
      access: "write",
      outputs: [out("accepted", "boolean", "whether the setpoint was within limits")],
      replies: bms.write({ zone_id: "{zone_id}", accepted: true }, ["zone", "zone_id"]),
    },
    {
      name: "alarms",
      description:
        "Active building alarms (filter blocked, high CO2, chiller fault) of a building, with the plant that raised them.",
      params: {
        building: str("building code"),
        severity: oneOf(["info", "minor", "major", "critical"], "minimum severity"),
      },
      required: [],
      access: "read",
      outputs: [out("alarms", "array", "alarm_id, plant, message, severity, raised_at")],
      replies: bms.list("alarms"),
    },
  ],
};

const visitors = replyStyle("google");
export const VISITORS: ToolSpec = {
  tool: "visitors",
  description: "Visitor management: guests registered at reception, their passes and the sign-in log.",
  endpoints: [
    {
      name: "register_visitor",
      description:
        "Register a guest for a visit: name, company, host and date; reception prints a day pass on arrival.",
      params: {
        name: str("visitor's full name"),
        company: str("visitor's company"),
        host: str("host's e-mail address"),
        visit_date: date("date of the visit"),
      },
      required: ["name", "host", "visit_date"],
      access: "write",
      outputs: [out("visit_id", "string", "identifier of the visit")],
      replies: visitors.write({ visitId: "VIS-{@id}", host: "{host}", visitDate: "{visit_date}" }),
    },
    {
      name: "visitor_log",
      description: "Sign-ins and sign-outs at reception on a day, with host and pass number.",
      params: { day: date("the day"), host: str("only guests of this host") },
      required: ["day"],
      access: "read",
      outputs: [out("entries", "array", "name, company, host, signed_in, signed_out, pass")],
      replies: visitors.list("entries"),
    },
    {
      name: "revoke_pass",
      description:
        "Revoke a visitor's day pass at once, e.g. when a guest leaves early; the pass stops opening doors.",
      params: { pass_id: str("visitor pass number") },
      required: ["pass_id"],
      access: "destructive",
      outputs: [out("revoked", "boolean", "true")],
      replies: visitors.write({ passId: "{pass_id}", revoked: true }, ["visitor pass", "pass_id"]),
    },
  ],
};

const parking = replyStyle("slack");
export const PARKING: ToolSpec = {
  tool: "parking",
  description: "Site parking: staff permits and bookable visitor spaces.",
  endpoints: [
    {
      name: "permits",
      description: "Parking permits held by a member of staff, with plate, car park and expiry.",
      params: { employee_id: str("employee number") },
      required: ["employee_id"],
      access: "read",
      outputs: [out("permits", "array", "permit_id, plate, car_park, expires_on")],
      replies: parking.get("employee", "employee_id"),
    },
    {
      name: "reserve_space",
      description: "Reserve a visitor parking space for a day in a car park, for a plate.",
      params: {
        car_park: oneOf(["P1", "P2", "P3_visitors"], "car park"),
        day: date("the day"),
        plate: str("vehicle plate"),
      },
      required: ["car_park", "day", "plate"],
      access: "write",
      outputs: [out("space", "string", "space number")],
      replies: parking.write({ reservation: "PK-{@id}", car_park: "{car_park}", day: "{day}" }),
    },
  ],
};

const canteen = replyStyle("problem");
export const CANTEEN: ToolSpec = {
  tool: "canteen",
  description: "Staff canteen: the week's menus with allergens, and lunch pre-orders.",
  endpoints: [
    {
      name: "menu",
      description: "The canteen's menu for a day: dishes, prices, allergens and which counter serves them.",
      params: {
        day: date("the day (default today)"),
        site: oneOf(["north_campus", "south_campus"], "which canteen"),
      },
      required: [],
      access: "read",
      outputs: [out("dishes", "array", "name, price, allergens, counter")],
      replies: canteen.list("dishes"),
    },
    {
      name: "order_lunch",
      description: "Pre-order a dish for collection at lunchtime, paid from the staff card.",
      params: {
        dish: str("dish name as on the menu"),
        day: date("the day"),
        pickup_time: str("collection time, e.g. '12:15'"),
      },
      required: ["dish", "day"],
      access: "write",
      outputs: [out("order_id", "string", "identifier of the order")],
      replies: canteen.write({ order_id: "L-{@id}", dish: "{dish}", day: "{day}" }),
    },
  ],
};

const meters = replyStyle("spring");
export const ENERGY_METERING: ToolSpec = {
  tool: "energy_metering",
  description:
    "Utility metering: electricity, gas and water meters of the site, their interval readings and tariffs.",
  endpoints: [
    {
      name: "meter_readings",
      description:
        "Interval consumption of a utility meter (kWh, m³) between two dates, in 15-minute or daily intervals.",
      params: {
        meter_id: str("meter identifier, e.g. 'EL-B2-MAIN'"),
        from_date: date("first day"),
        to_date: date("last day"),
        interval: oneOf(["15min", "daily"], "interval length (default daily)", "daily"),
      },
      required: ["meter_id"],
      access: "read",
      outputs: [out("intervals", "array", "start, consumption, unit")],
      replies: meters.list("intervals"),
    },
    {
      name: "tariff",
      description:
        "The supply tariff of a meter: unit rates by time band, standing charge and contract end date.",
      params: { meter_id: str("meter identifier") },
      required: ["meter_id"],
      access: "read",
      outputs: [out("tariff", "object", "rates, standing_charge, currency, contract_end")],
      replies: meters.get("meter", "meter_id"),
    },
  ],
};

const weather = replyStyle("google");
export const SITE_WEATHER: ToolSpec = {
  tool: "site_weather",
  description:
    "Site weather station on the roof of building A: outdoor conditions and the regional forecast.",
  endpoints: [
    {
      name: "conditions",
      description:
        "Outdoor air temperature, humidity, wind and pressure measured by the rooftop weather station right now.",
      params: { units: oneOf(["metric", "imperial"], "units (default metric)", "metric") },
      required: [],
      access: "read",
      outputs: [out("observation", "object", "temperature, humidity, wind_speed, pressure, observed_at")],
      replies: {
        not_found: {
          error: {
            code: 503,
            status: "UNAVAILABLE",
            message: "the rooftop station has not reported in the last 10 minutes",
          },
        },
        validation_error: { error: { code: 400, status: "INVALID_ARGUMENT", message: "{@message}" } },
      },
    },
    {
      name: "forecast",
      description:
        "Hour-by-hour regional weather forecast for the next days: temperature, precipitation and wind.",
      params: {
        days: int("days ahead, 1–7 (default 2)", { minimum: 1, maximum: 7, default: 2 }),
        include_alerts: bool("include weather warnings"),
      },
      required: [],
      access: "read",
      outputs: [out("hours", "array", "at, temperature, precipitation_mm, wind_speed")],
      replies: weather.list("hours"),
    },
  ],
};
