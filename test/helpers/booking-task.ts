/**
 * A booking in two calls, on the bundled catalogs' routes: bookings.availability reveals a free
 * slot's start and end (written with Z), and bookings.create matches only a booking of that slot —
 * compared as instants (`state … as: instant`), so any ISO 8601 spelling of them matches.
 */
import { complete } from "./world-tasks.ts";

export const BOOKING_TASK = complete({
  semantic_task_id: "w-booking",
  answer_task_stratum: "transform_or_export_then_status_answer",
  language: "en",
  query: "Book the SEM RES-SEM-02 for its first free slot on 3 March 2026 and tell me the booking id.",
  answer_fields: [{ key: "booking_id", kind: "identifier", description: "the booking's id", unit: null }],
  executor_fixture: {
    responses: [
      {
        id: "availability",
        route_id: "bookings.availability",
        argument_rules: { resource_id: { eq: "RES-SEM-02" } },
        required: true,
        reveals: {
          slot_start: "/sources/0/payload/free_slots/0/start",
          slot_end: "/sources/0/payload/free_slots/0/end",
        },
        observation: {
          status: "ok",
          sources: [
            {
              source_id: "SRC-AVAIL-SEM-02",
              payload: {
                resource_id: "RES-SEM-02",
                free_slots: [{ start: "2026-03-03T10:00:00Z", end: "2026-03-03T12:00:00Z" }],
              },
            },
          ],
        },
      },
      {
        id: "create",
        route_id: "bookings.create",
        argument_rules: {
          resource_id: { eq: "RES-SEM-02" },
          start: { state: "slot_start", as: "instant" },
          end: { state: "slot_end", as: "instant" },
        },
        required: true,
        observation: {
          status: "ok",
          sources: [{ source_id: "SRC-BK-6308", payload: { booking_id: "BK-6308", status: "confirmed" } }],
        },
      },
    ],
  },
  required_facts: [
    {
      key: "booking_id",
      value: "BK-6308",
      unit: null,
      source_id: "SRC-BK-6308",
      evidence: { source_id: "SRC-BK-6308", pointer: "/booking_id" },
    },
  ],
  forbidden_facts: [],
  numeric_tolerances: {},
  accepted_units: {},
  mandatory_answer_fields: ["booking_id"],
});
