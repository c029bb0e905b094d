/**
 * Equipment booking (BookIt): free slots and bookings of shared instruments, furnaces, glove boxes
 * and test frames. Errors follow Google's JSON style: `{error: {code, status, message}}`.
 */
import { instant, int, oneOf, out, pageSize, pageToken, str, type ToolSpec } from "../spec.ts";

const RESOURCE_ID = str("bookable resource identifier, e.g. RES-SEM-02 or RES-FURN-07");
const BOOKING_ID = str("booking identifier, e.g. BK-77310");
const INVALID = { error: { code: 400, status: "INVALID_ARGUMENT", message: "{@message}" } };
const UNKNOWN_RESOURCE = {
  error: { code: 404, status: "NOT_FOUND", message: "resource {resource_id} cannot be booked here" },
};
const UNKNOWN_BOOKING = {
  error: { code: 404, status: "NOT_FOUND", message: "booking {booking_id} not found" },
};

export const BOOKINGS: ToolSpec = {
  tool: "bookings",
  description:
    "Equipment booking (BookIt): availability and reservations of the laboratory's shared instruments, furnaces, glove boxes and test frames, with each resource's booking rules.",
  endpoints: [
    {
      name: "availability",
      description:
        "Free slots of a bookable resource between two instants, and its booking rules: longest slot allowed, training required, lead time.",
      params: {
        resource_id: RESOURCE_ID,
        from: instant("start of the window, ISO 8601"),
        to: instant("end of the window, ISO 8601"),
        min_duration_minutes: int("only slots at least this long", { minimum: 15 }),
      },
      required: ["resource_id", "from", "to"],
      access: "read",
      outputs: [
        out("free_slots", "array", "start, end"),
        out("rules", "object", "max_slot_minutes, training_required, min_lead_hours"),
      ],
      replies: {
        not_found: UNKNOWN_RESOURCE,
        empty: { resource_id: "{resource_id}", from: "{from}", to: "{to}", free_slots: [] },
        validation_error: INVALID,
      },
    },
    {
      name: "list",
      description:
        "List bookings of a resource or of a person in a period, with slot, purpose, project code and status.",
      params: {
        resource_id: str("only bookings of this resource"),
        booked_by: str("only bookings made by this person (e-mail address)"),
        from: instant("bookings ending after this instant"),
        to: instant("bookings starting before this instant"),
        status: oneOf(["confirmed", "tentative", "cancelled"], "only bookings in this status"),
        page_size: pageSize(100, 25),
        page_token: pageToken(),
      },
      required: [],
      access: "read",
      outputs: [
        out(
          "bookings",
          "array",
          "booking_id, resource_id, start, end, booked_by, purpose, project_code, status",
        ),
        out("next_page_token", "string", "token of the next page, null on the last"),
      ],
      replies: { empty: { bookings: [], next_page_token: null }, validation_error: INVALID },
    },
    {
      name: "create",
      description:
        "Book a resource for a time slot with a purpose and project code; confirmed when the slot is free and the booker holds the training the resource requires.",
      params: {
        resource_id: RESOURCE_ID,
        start: instant("slot start, ISO 8601"),
        end: instant("slot end, ISO 8601"),
        purpose: str("what the resource is booked for"),
        project_code: str("project the time is charged to"),
      },
      required: ["resource_id", "start", "end"],
      access: "write",
      outputs: [
        out("booking_id", "string", "identifier of the booking"),
        out("status", "string", "confirmed or tentative"),
      ],
      replies: {
        success: {
          booking_id: "BK-{@id}",
          resource_id: "{resource_id}",
          start: "{start}",
          end: "{end}",
          status: "confirmed",
        },
        not_found: UNKNOWN_RESOURCE,
        validation_error: INVALID,
      },
    },
    {
      name: "cancel",
      description:
        "Cancel a booking: the slot is released to the waiting list at once and the booking cannot be restored.",
      params: { booking_id: BOOKING_ID, reason: str("reason shown to the resource owner") },
      required: ["booking_id"],
      access: "destructive",
      outputs: [out("booking_id", "string", "the booking cancelled"), out("status", "string", "cancelled")],
      replies: {
        success: { booking_id: "{booking_id}", status: "cancelled" },
        not_found: UNKNOWN_BOOKING,
        validation_error: INVALID,
      },
    },
  ],
};
