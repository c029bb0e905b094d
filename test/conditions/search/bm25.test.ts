import { describe, expect, it } from "vitest";
import { catalogSearch, searchFields, searchTerms } from "../../../src/conditions/search/index.ts";
import { endpoint } from "./fixtures.ts";

// Documents (function name words + rendered description words), lengths 6, 7, 6, 19; mean 9.5.
const CATALOG = [
  endpoint("gamma.put", "Gamma tool.", "Writes files."),
  endpoint(
    "delta.get",
    "Delta tool.",
    "Weather weather weather one two three four five six seven eight nine ten eleven twelve.",
  ),
  endpoint("beta.get", "Beta tool.", "Weather and weather."),
  endpoint("alpha.get", "Alpha tool.", "Reads weather."),
];
const bm25 = catalogSearch("bm25", CATALOG);
const ids = (query: string, k = 10) => {
  const outcome = bm25.search(query, k);
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.hits.map((h) => h.route_id);
};

describe("searchTerms", () => {
  it("folds, normalises and splits on anything but letters, marks and digits", () => {
    expect(searchTerms("materials search")).toEqual(["materials", "search"]);
    expect(searchTerms("MAT 1418/PU, please")).toEqual(["mat", "1418", "pu", "please"]);
    expect(searchTerms("Straße ＭＡＴ")).toEqual(["strasse", "mat"]);
  });

  it("gives an identifier (words joined by _ . -) whole, then its parts", () => {
    expect(searchTerms("materials__search")).toEqual(["materials__search", "materials", "search"]);
    expect(searchTerms("MAT-1418-PU, please")).toEqual(["mat-1418-pu", "mat", "1418", "pu", "please"]);
    expect(searchTerms("Use materials.current.")).toEqual([
      "use",
      "materials.current",
      "materials",
      "current",
    ]);
    // A spaceless-script letter in it: parts only (bigrams).
    expect(searchTerms("在庫_システム")).toEqual(["在庫", "シス", "ステ", "テム"]);
  });

  it("cuts Han, Hiragana and Katakana into bigrams, and keeps Hangul words whole", () => {
    expect(searchTerms("在庫システム")).toEqual(["在庫", "庫シ", "シス", "ステ", "テム"]);
    expect(searchTerms("Ta置換LLZO")).toEqual(["ta", "置換", "llzo"]);
    expect(searchTerms("の")).toEqual(["の"]);
    expect(searchTerms("재고를 확인")).toEqual(["재고를", "확인"]);
  });
});

describe("searchFields", () => {
  it("gives the function name, the rendered description, then each parameter's name and description", () => {
    const e = endpoint("materials.search", "MatDB.", "Search materials.", {
      query: { type: "string", description: "name or grade" },
      page: { type: "integer" },
    });
    expect(searchFields(e)).toEqual([
      { kind: "name", text: "materials__search" },
      { kind: "description", text: "MatDB. Search materials." },
      { kind: "argument_name", text: "query" },
      { kind: "argument_description", text: "name or grade" },
      { kind: "argument_name", text: "page" },
    ]);
  });
});

describe("bm25", () => {
  it("ranks by Okapi BM25 with k1 = 1.2 and b = 0.75 (scores 0.530, 0.462, 0.420 by hand)", () => {
    // beta: tf 2 in 7 terms; delta: tf 3 in 19 terms (length normalisation puts it second); alpha: tf 1 in 6.
    expect(ids("weather")).toEqual(["beta.get", "delta.get", "alpha.get"]);
    expect(ids("get weather")).toEqual(["beta.get", "alpha.get", "delta.get"]);
  });

  it("keeps a term found in every document positive (IDF ln(1 + (N − n + 0.5)/(n + 0.5))), ties by route id", () => {
    // "tool" is in all four: IDF ln(1 + 0.5/4.5) > 0; alpha and gamma tie (length 6) and go by route id.
    expect(ids("tool")).toEqual(["alpha.get", "gamma.put", "beta.get", "delta.get"]);
  });

  it("returns no tool for a query sharing no term, and at most k", () => {
    expect(ids("pressure transducer")).toEqual([]);
    expect(ids("tool", 2)).toEqual(["alpha.get", "gamma.put"]);
    expect(ids("ファイル")).toEqual([]);
  });

  it("finds a tool by its exact function name before a look-alike that wins on the name's words", () => {
    // Documents: exports__export, exports, export, exports, writes, one, archive, of, every, record (10);
    // exports_v1__export, exports, v1, export, exports, export, export (7); files__get, files, get,
    // files, reads, files (6). N = 3, mean length 23/3. IDF: exports, export (n = 2) ln 1.6 = 0.470;
    // exports__export (n = 1) ln(8/3) = 0.981. Length factor k1(1 − b + b·len/mean): 1.474 and 1.122.
    const catalog = [
      endpoint("exports.export", "Exports.", "Writes one archive of every record."),
      endpoint("exports_v1.export", "Exports.", "Export export."),
      endpoint("files.get", "Files.", "Reads files."),
    ];
    const search = catalogSearch("bm25", catalog);
    const found = (q: string) => {
      const outcome = search.search(q, 5);
      return outcome.ok ? outcome.hits.map((h) => h.route_id) : [];
    };
    // Words only: exports__export 0.595 + 0.418 = 1.013 < exports_v1__export 0.663 + 0.753 = 1.415.
    expect(found("exports export")).toEqual(["exports_v1.export", "exports.export"]);
    // The exact name adds its own rare term to exports__export alone: 1.013 + 0.981 × 2.2/2.474 = 1.886.
    expect(found("exports__export")).toEqual(["exports.export", "exports_v1.export"]);
  });

  it("refuses a query with no words", () => {
    expect(bm25.search(" … ", 5)).toMatchObject({ ok: false, code: "empty_query" });
  });

  it("returns the same hits for the same query, whatever the catalog order", () => {
    const reversed = catalogSearch("bm25", [...CATALOG].reverse());
    expect(reversed.search("weather tool", 5)).toEqual(bm25.search("weather tool", 5));
  });
});
