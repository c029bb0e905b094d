/**
 * The executor validates a call as the API would (#32 item 4): every constraint of the endpoint's
 * parameter schema, answered with the route's own validation reply; a hidden route answers as an
 * unknown tool; a date-time rule compares instants, not spellings.
 */
import { describe, expect, it } from "vitest";
import type { Endpoint } from "../../src/conditions/catalog/index.ts";
import { ReplayExecutor, type Visible } from "../../src/conditions/execution/index.ts";
import { bundled } from "../helpers/bundled.ts";
import { BOOKING_TASK } from "../helpers/booking-task.ts";
import { EXPORT_TASK } from "../helpers/world-tasks.ts";

const { catalogs } = bundled();
const endpoints = catalogs[0]!.catalog.endpoints;

const attempt = (name: string, args: unknown, visible: Visible = "all", task = EXPORT_TASK) =>
  new ReplayExecutor(task, endpoints).call({ id: "c", name, arguments: args }, visible, 1, 0);

/** Google-style body materials.search (MatDB) answers a refused call with. */
const matdb = (message: string) => ({
  status: "error",
  error: { error: { code: "INVALID_ARGUMENT", message } },
});
/** The booking service's body: the same, with a numeric code and a status word. */
const booking = (message: string) => ({
  status: "error",
  error: { error: { code: 400, status: "INVALID_ARGUMENT", message } },
});

describe("the executor validates arguments against the endpoint's schema", () => {
  it.each([
    // material_class's enum, in the catalog's order.
    [
      { query: "Inconel", material_class: "banana" },
      "invalid_argument_value",
      "material_class must be one of: metal_alloy, polymer, ceramic, composite, glass, elastomer, foam, powder",
    ],
    // page_size: minimum 1, maximum 100.
    [{ query: "Inconel", page_size: 0 }, "invalid_argument_value", "page_size must be >= 1"],
    [{ query: "Inconel", page_size: 101 }, "invalid_argument_value", "page_size must be <= 100"],
    [{ query: "Inconel", page_size: 2.5 }, "invalid_type", "page_size must be integer"],
    // The first problem in schema order: query comes before page_size.
    [{ query: 7, page_size: 0 }, "invalid_type", "query must be string"],
    [{ page_size: 0 }, "missing_required_argument", "missing required argument(s): query"],
    [{ query: "x", colour: "red" }, "unexpected_arguments", "unexpected argument(s): colour"],
  ])("answers %j with MatDB's own validation reply (%s)", (args, code, message) => {
    const refused = attempt("materials__search", args);
    expect([refused.outcome, refused.error_code, refused.observation]).toEqual([
      "error",
      code,
      matdb(message),
    ]);
  });

  it("refuses a date-time that names no instant, in the booking service's words", () => {
    const args = { resource_id: "RES-SEM-02", start: "next tuesday", end: "2026-03-03T12:00:00Z" };
    const refused = attempt("bookings__create", args);
    expect([refused.outcome, refused.error_code, refused.observation]).toEqual([
      "error",
      "invalid_format",
      booking("start must be an ISO 8601 date-time with a time zone (e.g. 2026-03-03T10:00:00Z)"),
    ]);
    // A local time without a zone names no instant either.
    expect(attempt("bookings__create", { ...args, start: "2026-03-03T10:00:00" }).error_code).toBe(
      "invalid_format",
    );
  });

  it("accepts every spelling of an instant the replay's rules read (offsets, Z, fractions, no seconds)", () => {
    for (const start of [
      "2026-03-03T10:00:00Z",
      "2026-03-03T10:00:00+00:00",
      "2026-03-03T19:00:00.250+09:00",
      "2026-03-03T10:00Z",
    ]) {
      const made = attempt("bookings__create", {
        resource_id: "RES-SEM-02",
        start,
        end: "2026-03-03T23:00:00Z",
      });
      expect([start, made.outcome, made.error_code]).toEqual([start, "unmatched", null]);
    }
  });

  it("falls back to the executor's own refusal for an endpoint without reply templates", () => {
    const bare = endpoints.map((e): Endpoint => {
      if (e.route_id !== "materials.search") return e;
      const { replies: _, ...rest } = e;
      return rest;
    });
    const refused = new ReplayExecutor(EXPORT_TASK, bare).call(
      { id: "c", name: "materials__search", arguments: { query: "x", page_size: 0 } },
      "all",
      1,
      0,
    );
    expect(refused.observation).toEqual({
      status: "error",
      error_code: "invalid_argument_value",
      message: "page_size must be >= 1",
    });
  });
});

describe("a hidden route answers exactly as an unknown tool does", () => {
  const UNKNOWN = "materials__teleport";
  it.each([
    ["materials__retrieve", { material_id: "MAT-1043-TI" }],
    // Arguments its schema refuses: the reply must not say which (that would map the route).
    ["materials__retrieve", { bogus: 1 }],
    ["materials__search", {}],
    ["inventory__delete", { item_id: "I-1" }],
  ])("%s %j", (name, args) => {
    const hidden = attempt(name, args, new Set(["exports.export"]));
    const unknown = attempt(UNKNOWN, args, new Set(["exports.export"]));
    expect(JSON.parse(JSON.stringify(hidden.observation).replaceAll(name, UNKNOWN))).toEqual(
      unknown.observation,
    );
    expect(unknown.observation).toEqual({
      status: "error",
      error_code: "unknown_tool",
      message: `there is no tool named ${UNKNOWN}`,
    });
    // Only the record, which the agent never sees, tells a hidden catalog route from a made-up name.
    expect([hidden.outcome, hidden.error_code, unknown.error_code]).toEqual([
      "error",
      "unavailable_tool",
      "unknown_tool",
    ]);
  });
});

describe("a date-time rule compares instants", () => {
  const book = (executor: ReplayExecutor, start: string, end: string, turn: number) =>
    executor.call(
      { id: "c", name: "bookings__create", arguments: { resource_id: "RES-SEM-02", start, end } },
      "all",
      turn,
      0,
    );

  it("matches a +00:00 (or +09:00) spelling of a revealed Z instant, once it was revealed", () => {
    const executor = new ReplayExecutor(BOOKING_TASK, endpoints);
    // Before the availability response revealed the slot, the same booking matches nothing.
    expect(book(executor, "2026-03-03T10:00:00Z", "2026-03-03T12:00:00Z", 1).outcome).toBe("unmatched");
    const window = { resource_id: "RES-SEM-02", from: "2026-03-03T00:00:00Z", to: "2026-03-04T00:00:00Z" };
    expect(
      executor.call({ id: "c", name: "bookings__availability", arguments: window }, "all", 2, 0).response_id,
    ).toBe("availability");
    // 10:00+00:00 is 10:00Z; 21:00+09:00 is 12:00Z.
    const made = book(executor, "2026-03-03T10:00:00+00:00", "2026-03-03T21:00:00+09:00", 3);
    expect([made.outcome, made.response_id, executor.complete]).toEqual(["observation", "create", true]);
  });

  it("does not match another instant, however it is spelled", () => {
    const executor = new ReplayExecutor(BOOKING_TASK, endpoints);
    const window = { resource_id: "RES-SEM-02", from: "2026-03-03T00:00:00Z", to: "2026-03-04T00:00:00Z" };
    executor.call({ id: "c", name: "bookings__availability", arguments: window }, "all", 1, 0);
    // 10:00+01:00 is 09:00Z, an hour before the slot.
    expect(book(executor, "2026-03-03T10:00:00+01:00", "2026-03-03T12:00:00Z", 2).outcome).toBe("unmatched");
  });
});
