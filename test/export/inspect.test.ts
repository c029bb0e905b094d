/** The Inspect eval log built from a hand-made episode: every field checked against hand-computed values. */
import { describe, expect, it } from "vitest";
import { MORE_TOOLS_SHOWN, renderUserMessage } from "../../src/conditions/execution/index.ts";
import { inspectLog, inspectLogSchema, modelName, targetLine } from "../../src/export/index.ts";
import { FINAL, makeRecord, makeSummary, METADATA, OBSERVATION, REFUSED, TASK } from "./fixtures.ts";

function build(systemPrompt: string | null = "SYSTEM PROMPT") {
  const record = makeRecord();
  return inspectLog({
    summary: makeSummary([record]),
    summarySha256: "5".repeat(64),
    records: [record],
    tasks: new Map([[TASK.semantic_task_id, TASK]]),
    systemPrompt,
    corpusName: "corpus.json",
  });
}

describe("inspectLog", () => {
  it("writes only fields of the Inspect log subset we defined (strict objects)", () => {
    expect(() => inspectLogSchema.parse(build())).not.toThrow();
    expect(() => inspectLogSchema.parse(build(null))).not.toThrow();
  });

  it("makes one sample per episode: id, epoch, the request as input, the required facts as target", () => {
    const [sample] = build().samples;
    expect(sample?.id).toBe("t-1-c100-SR-5");
    expect(sample?.epoch).toBe(1);
    expect(sample?.input).toBe(renderUserMessage(TASK));
    expect(sample?.input.startsWith("What is the modulus of MAT-1?\n")).toBe(true);
    expect(sample?.target).toEqual(["youngs_modulus = 144 GPa — source SRC-A"]);
  });

  it("turns the trajectory into messages: calls, replies (with the refused one's error), the widening reply", () => {
    const messages = build().samples[0]?.messages ?? [];
    expect(messages.map((m) => m.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "tool",
      "assistant",
      "user",
      "assistant",
    ]);
    const call = messages[2];
    if (call?.role !== "assistant") throw new Error("no assistant message");
    expect(call.tool_calls?.map((c) => [c.id, c.function, c.arguments])).toEqual([
      ["call_1_0", "materials__current", { material_id: "MAT-1" }],
      // Inspect's arguments are an object: anything else is kept under `arguments`.
      ["call_1_1", "materials__history", { arguments: "not an object" }],
    ]);
    const [ok, refused] = [messages[3], messages[4]];
    if (ok?.role !== "tool" || refused?.role !== "tool") throw new Error("no tool messages");
    expect([ok.tool_call_id, ok.content, ok.error]).toEqual(["call_1_0", JSON.stringify(OBSERVATION), null]);
    expect([refused.tool_call_id, refused.content, refused.error]).toEqual([
      "call_1_1",
      JSON.stringify(REFUSED),
      { type: "unknown", message: "unavailable_tool" },
    ]);
    expect(messages[6]?.content).toBe(MORE_TOOLS_SHOWN);
    expect(messages[7]?.content).toBe(FINAL);
    expect(new Set(messages.map((m) => m.id)).size).toBe(messages.length);
  });

  it("leaves the system message out when the prompt is not the run's", () => {
    expect(build(null).samples[0]?.messages[0]?.role).toBe("user");
  });

  it("scores each metric with a value; a null metric is left out", () => {
    const sample = build().samples[0];
    expect(Object.fromEntries(Object.entries(sample?.scores ?? {}).map(([k, s]) => [k, s.value]))).toEqual({
      required_fact_recall: 0.5,
      tool_calls: 2,
    });
  });

  it("takes times and usage from the record, never the clock", () => {
    const log = build();
    const sample = log.samples[0];
    expect(sample?.started_at).toBe("2026-01-02T03:04:05.000Z");
    expect(sample?.completed_at).toBe("2026-01-02T03:04:06.500Z");
    expect(sample?.total_time).toBe(1.5);
    expect(sample?.output.usage).toMatchObject({ input_tokens: 300, output_tokens: 30, total_tokens: 330 });
    expect([log.eval.created, log.stats.started_at, log.stats.completed_at]).toEqual([
      "2026-01-02T03:04:05.000Z",
      "2026-01-02T03:04:05.000Z",
      "2026-01-02T03:04:06.500Z",
    ]);
    expect(JSON.stringify(build())).toBe(JSON.stringify(log));
  });

  it("puts the identity and outcome in the sample's metadata and the provenance in the eval's", () => {
    const log = build();
    expect(log.samples[0]?.metadata).toMatchObject({
      semantic_task_id: "t-1",
      catalog_size: 100,
      condition: "SR-5",
      trial: 1,
      router_id: "word-overlap",
      status: "completed",
      error_code: null,
      end_reason: "final_answer",
    });
    expect(log.eval.metadata["fabench"]).toMatchObject({ router_id: "word-overlap", gate_status: "FAIL" });
    expect(log.eval.task).toBe("proto-v1");
    expect(log.eval.tags).toContain("not-preregistered");
    expect(log.eval.revision?.commit).toBe("abc123");
  });

  it("gives the summary's means per condition × catalog size as results, for the metrics defined in every cell", () => {
    const scores = build().results.scores;
    const recall = scores.find((s) => s.name === "required_fact_recall");
    expect(recall?.metrics).toEqual({
      "SR-5/100": {
        name: "SR-5/100",
        value: 0.5,
        params: { condition: "SR-5", catalog_size: 100 },
        metadata: null,
      },
    });
    // `recovered` has no mean under SR-5 here: listed, it would head the viewer's page.
    expect(scores.map((s) => s.name)).toEqual(["required_fact_recall"]);
  });
});

describe("modelName and targetLine", () => {
  it("names models provider/model", () => {
    expect(modelName(METADATA)).toBe("fabench/reference");
    expect(modelName({ agent: "anthropic:claude-x", model: null })).toBe("anthropic/claude-x");
    expect(modelName({ agent: "openai:gpt-x", model: "gpt-x-2026-01-01" })).toBe("openai/gpt-x-2026-01-01");
  });

  it("writes a required fact with its other accepted sources", () => {
    const [fact] = TASK.required_facts;
    if (fact === undefined) throw new Error("no fact");
    expect(
      targetLine({ ...fact, value: "TR-1", unit: null, also_in: [{ source_id: "SRC-B", pointer: "/x" }] }),
    ).toBe("youngs_modulus = TR-1 — source SRC-A (or: SRC-B)");
  });
});
