import { describe, expect, it } from "vitest";
import {
  catalogSearch,
  distinctiveWords,
  escapeRegex,
  queryFromRequest,
  searchReply,
  searchTool,
} from "../../../src/conditions/search/index.ts";
import { endpoint } from "./fixtures.ts";

describe("queryFromRequest", () => {
  it("BM25 searches with the request text itself", () => {
    expect(queryFromRequest({ query: "  What is the flash point?\n" }, "bm25")).toBe(
      "What is the flash point?",
    );
  });

  it("regex searches with (?i) and the distinctive words, longest first, each once", () => {
    const task = {
      query: "What is the thermal conductivity of MAT-1418? Please check the Thermal database.",
    };
    // Dropped: stop words (what, the, please), short words (is, of), digits (1418), repeats (Thermal).
    expect(queryFromRequest(task, "regex")).toBe("(?i)conductivity|database|thermal|check|MAT");
  });

  it("escapes for a Python pattern: letters, digits and _ as they are, anything else with a backslash", () => {
    expect(escapeRegex("materials__search")).toBe("materials__search");
    expect(escapeRegex("a.b-c d")).toBe("a\\.b\\-c\\ d");
  });

  it("leaves out spaceless-script runs and cased non-ASCII letters, keeps Hangul words", () => {
    expect(distinctiveWords("在庫システムの SDS を確認")).toEqual(["SDS"]);
    expect(distinctiveWords("Prüfbericht des Werkstoffs")).toEqual(["Werkstoffs"]);
    expect(distinctiveWords("재고 시스템에서 확인")).toEqual(["시스템에서"]);
    expect(queryFromRequest({ query: "在庫を確認してください" }, "regex")).toBe("");
  });

  it("stays within 200 characters, keeping the longest words that fit", () => {
    // Twenty 12-character words and one of 3: "(?i)" + 15 × 12 + 14 "|" = 198; a 16th word or "zzz" would pass 200.
    const words = Array.from({ length: 20 }, (_, i) => `word${String.fromCharCode(97 + i).repeat(8)}`);
    const pattern = queryFromRequest({ query: `zzz ${words.join(" ")}` }, "regex");
    expect(pattern).toBe(`(?i)${words.slice(0, 15).join("|")}`);
    expect(pattern.length).toBe(198);
  });
});

describe("searchTool and searchReply", () => {
  it("describes the BM25 tool as the contract says", () => {
    const tool = searchTool("bm25", 5);
    expect(tool.name).toBe("tool_search");
    expect(tool.parameters).toEqual({
      type: "object",
      properties: {
        query: {
          type: "string",
          description:
            "Words describing the tool you need; returns up to 5 tools, which you can call from your next turn on.",
        },
      },
      required: ["query"],
      additionalProperties: false,
    });
  });

  it("describes the regex tool's pattern, length limit, fields and case rule", () => {
    const tool = searchTool("regex", 3);
    expect(tool.parameters.required).toEqual(["pattern"]);
    const pattern = tool.parameters.properties["pattern"] as { description: string };
    expect(pattern.description).toBe(
      "A Python re.search pattern (at most 200 characters) matched against tool names, descriptions, argument names and argument descriptions; case-sensitive unless it starts with (?i). Returns up to 3 tools, which you can call from your next turn on.",
    );
  });

  it("replies with the loaded tools' names and rendered descriptions, best first, or the refusal", () => {
    const search = catalogSearch("bm25", [
      endpoint("alpha.get", "Alpha tool.", "Reads weather."),
      endpoint("beta.get", "Beta tool.", "Weather and weather."),
    ]);
    expect(searchReply(search.search("weather", 5))).toBe(
      '{"tools":[{"name":"beta__get","description":"Beta tool. Weather and weather."},{"name":"alpha__get","description":"Alpha tool. Reads weather."}]}',
    );
    expect(searchReply(search.search("pressure", 5))).toBe('{"tools":[]}');
    // Given the catalog, the descriptions come from it (the same rendering).
    const bare = { ok: true as const, hits: [{ route_id: "alpha.get", function_name: "alpha__get" }] };
    expect(searchReply(bare)).toBe('{"tools":[{"name":"alpha__get","description":""}]}');
    expect(searchReply(bare, [endpoint("alpha.get", "Alpha tool.", "Reads weather.")])).toBe(
      '{"tools":[{"name":"alpha__get","description":"Alpha tool. Reads weather."}]}',
    );
    expect(searchReply({ ok: false, code: "invalid_pattern", message: "bad escape \\q" })).toBe(
      '{"error":{"code":"invalid_pattern","message":"bad escape \\\\q"}}',
    );
  });
});
