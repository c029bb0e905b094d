/** The judge's reply is read exactly or not at all: one reason code per defect, never repaired. */
import { describe, expect, it } from "vitest";
import { keptReply, parseJudgeReply, RAW_REPLY_MAX_CHARS } from "../../src/judge/reply.ts";
import { bundledProtocol } from "../helpers/protocol.ts";

const { judge } = bundledProtocol();
const reason = (text: string) => {
  const result = parseJudgeReply(text, judge);
  return result.ok ? "ok" : result.reason;
};
const reply = (value: Record<string, unknown>) => JSON.stringify(value);
const good = { coherence: 4, completeness: 2, rationale: "Clear, but most parts are missing." };

describe("parseJudgeReply", () => {
  it("reads a valid reply into ratings and rationale (whitespace around the JSON is JSON)", () => {
    expect(parseJudgeReply(`\n ${reply(good)} \n`, judge)).toEqual({
      ok: true,
      ratings: { coherence: 4, completeness: 2 },
      rationale: good.rationale,
    });
    expect(reason(reply({ ...good, rationale: "" }))).toBe("ok");
    expect(reason(reply({ ...good, rationale: "é".repeat(300) }))).toBe("ok");
  });

  it("gives each malformed reply its reason code", () => {
    const cases: Array<[string, string]> = [
      ["", "reply_not_json"],
      ["The answer is clear. Coherence 4.", "reply_not_json"],
      // Wrapped in a code fence or prose: not repaired.
      ["```json\n" + reply(good) + "\n```", "reply_not_json"],
      [`Here it is: ${reply(good)}`, "reply_not_json"],
      ["[4, 2]", "reply_not_object"],
      ["null", "reply_not_object"],
      ['"{}"', "reply_not_object"],
      [reply({ ...good, confidence: 0.9 }), "unexpected_field"],
      [reply({ completeness: 2, rationale: "x" }), "rating_missing"],
      [reply({ ...good, coherence: "4" }), "rating_not_integer"],
      [reply({ ...good, completeness: 3.5 }), "rating_not_integer"],
      [reply({ ...good, coherence: null }), "rating_not_integer"],
      [reply({ ...good, coherence: 0 }), "rating_out_of_range"],
      [reply({ ...good, completeness: 6 }), "rating_out_of_range"],
      [reply({ coherence: 4, completeness: 2 }), "rationale_missing"],
      [reply({ ...good, rationale: 5 }), "rationale_missing"],
      [reply({ ...good, rationale: "x".repeat(judge.rationale_max_chars + 1) }), "rationale_too_long"],
    ];
    expect(cases.map(([text]) => [text.slice(0, 40), reason(text)])).toEqual(
      cases.map(([text, code]) => [text.slice(0, 40), code]),
    );
  });

  it("keeps a malformed reply's raw text, cut at RAW_REPLY_MAX_CHARS and saying so", () => {
    const short = parseJudgeReply("not json", judge);
    expect(short).toEqual({ ok: false, reason: "reply_not_json", rawReply: "not json" });
    const long = "🙂".repeat(RAW_REPLY_MAX_CHARS + 10);
    const kept = keptReply(long);
    expect([...kept].slice(0, RAW_REPLY_MAX_CHARS).join("")).toBe("🙂".repeat(RAW_REPLY_MAX_CHARS));
    expect(kept.endsWith(`… [cut: the reply had ${RAW_REPLY_MAX_CHARS + 10} characters]`)).toBe(true);
    expect(keptReply("x".repeat(RAW_REPLY_MAX_CHARS))).toBe("x".repeat(RAW_REPLY_MAX_CHARS));
  });
});
