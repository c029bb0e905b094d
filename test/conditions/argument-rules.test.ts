/**
 * The argument rules that compare by meaning (#32): instants in any ISO 8601 spelling, search
 * terms on word boundaries, a booking inside a revealed free slot. Expected values are worked out
 * by hand in the comments.
 */
import { describe, expect, it } from "vitest";
import { hasTerm, instantOf, rulesHold, sameInstant } from "../../src/conditions/execution/arguments.ts";

describe("instantOf", () => {
  it("reads Z, numeric offsets and fractions as the same epoch instant", () => {
    // 2026-03-03T10:00:00Z = 1772532000000 ms (Date.UTC(2026, 2, 3, 10)).
    expect(instantOf("2026-03-03T10:00:00Z")).toBe(Date.UTC(2026, 2, 3, 10));
    expect(instantOf("2026-03-03T10:00:00+00:00")).toBe(Date.UTC(2026, 2, 3, 10));
    expect(instantOf("2026-03-03T19:00:00+09:00")).toBe(Date.UTC(2026, 2, 3, 10));
    expect(instantOf("2026-03-03T05:30:00-04:30")).toBe(Date.UTC(2026, 2, 3, 10));
    expect(instantOf("2026-03-03T10:00:00.000Z")).toBe(Date.UTC(2026, 2, 3, 10));
    expect(instantOf("2026-03-03T10:00Z")).toBe(Date.UTC(2026, 2, 3, 10));
  });

  it("names no instant without a zone, on a day the month lacks, or for non-strings", () => {
    expect(instantOf("2026-03-03T10:00:00")).toBeNull();
    expect(instantOf("2026-02-30T10:00:00Z")).toBeNull();
    expect(instantOf("2026-03-03T24:00:00Z")).toBeNull();
    expect(instantOf("next tuesday")).toBeNull();
    expect(instantOf(1772532000000)).toBeNull();
  });

  it("compares instants, not strings", () => {
    expect(sameInstant("2026-03-03T10:00:00Z", "2026-03-03T11:00:00+01:00")).toBe(true);
    expect(sameInstant("2026-03-03T10:00:00Z", "2026-03-03T10:00:00+01:00")).toBe(false);
    expect(sameInstant("garbage", "garbage")).toBe(false);
  });
});

describe("hasTerm", () => {
  it("finds a term after case folding and whitespace collapsing, on word boundaries", () => {
    expect(hasTerm("inconel   718 bar properties", "Inconel 718")).toBe(true);
    expect(hasTerm("MAT-4012-NI tensile", "mat-4012-ni")).toBe(true);
    // Inside a longer word or number it is not the term.
    expect(hasTerm("Inconel 7180", "Inconel 718")).toBe(false);
    expect(hasTerm("PEEKS", "PEEK")).toBe(false);
    expect(hasTerm("zzz completely unrelated banana", "Inconel 718")).toBe(false);
  });

  it("finds terms glued to Japanese or Korean text, which has no spaces around them", () => {
    expect(hasTerm("チタン合金Ti-6Al-4Vの降伏強さ", "Ti-6Al-4V")).toBe(true);
    expect(hasTerm("LLZO를 쓴 논문", "LLZO")).toBe(true);
    expect(hasTerm("ジクロロメタンのSDS", "ジクロロメタン")).toBe(true);
    // Latin letters on both sides still join: "Ti-6Al-4VX" is another word.
    expect(hasTerm("Ti-6Al-4VX", "Ti-6Al-4V")).toBe(false);
  });
});

describe("rulesHold with the new rules", () => {
  const none = new Map<string, unknown>();

  it("instant: any spelling of the instant holds, another instant does not", () => {
    const rules = { start: { instant: "2026-04-07T08:00:00Z" } };
    expect(rulesHold(rules, { start: "2026-04-07T10:00:00+02:00" }, none)).toBe(true);
    expect(rulesHold(rules, { start: "2026-04-07T08:00:00+02:00" }, none)).toBe(false);
  });

  it("state as instant: a +00:00 spelling of a revealed Z instant holds", () => {
    const state = new Map<string, unknown>([["slot_start", "2026-04-07T08:00:00Z"]]);
    const rules = { start: { state: "slot_start", as: "instant" as const } };
    expect(rulesHold(rules, { start: "2026-04-07T08:00:00+00:00" }, state)).toBe(true);
    // Without `as`, the revealed value is compared as JSON: only the same string holds.
    expect(rulesHold({ start: { state: "slot_start" } }, { start: "2026-04-07T08:00:00+00:00" }, state)).toBe(
      false,
    );
  });

  it("terms: a query about the entity holds, an unrelated one does not", () => {
    const rules = { query: { terms: ["MAT-4012-NI", "Inconel 718"] } };
    expect(rulesHold(rules, { query: "inconel 718 bar" }, none)).toBe(true);
    expect(rulesHold(rules, { query: "zzz completely unrelated banana" }, none)).toBe(false);
    expect(rulesHold(rules, { query: 718 }, none)).toBe(false);
  });

  it("fits_slot: inside a revealed slot and within the durations", () => {
    // Slots 08:00–12:00 and 14:00–15:00 on 2026-04-07 (UTC); 120–240 minutes wanted.
    const state = new Map<string, unknown>([
      [
        "free_slots",
        [
          { start: "2026-04-07T08:00:00Z", end: "2026-04-07T12:00:00Z" },
          { start: "2026-04-07T14:00:00Z", end: "2026-04-07T15:00:00Z" },
        ],
      ],
    ]);
    const rules = {
      start: { fits_slot: { slots: "free_slots", end: "end", min_minutes: 120, max_minutes: 240 } },
    };
    const holds = (start: string, end: string) => rulesHold(rules, { start, end }, state);
    expect(holds("2026-04-07T09:00:00Z", "2026-04-07T11:30:00Z")).toBe(true); // 150 min inside the first
    expect(holds("2026-04-07T10:00:00+02:00", "2026-04-07T12:00:00+02:00")).toBe(true); // 08:00–10:00Z
    expect(holds("2026-04-07T11:00:00Z", "2026-04-07T13:00:00Z")).toBe(false); // runs past 12:00
    expect(holds("2026-04-07T14:00:00Z", "2026-04-07T15:00:00Z")).toBe(false); // 60 min < 120
    expect(holds("2026-04-07T08:00:00Z", "2026-04-07T12:30:00Z")).toBe(false); // past the slot, 270 min
    expect(holds("2026-04-07T11:00:00Z", "2026-04-07T09:00:00Z")).toBe(false); // ends before it starts
    // Before the slots are revealed nothing fits.
    expect(rulesHold(rules, { start: "2026-04-07T09:00:00Z", end: "2026-04-07T11:00:00Z" }, none)).toBe(
      false,
    );
  });
});
