import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  foldQuotesAndDashes,
  normalizeIdentifier,
  normalizeQuery,
  normalizeText,
} from "../../src/core/index.ts";

describe("normalizeText (the scorer's rule for text answers)", () => {
  it("folds curly, low-9 and angle quotes to straight ones", () => {
    expect(
      foldQuotesAndDashes("\u2018a\u2019 \u201cb\u201d \u201ec\u201f \u00abd\u00bb \u2039e\u203a it\u02bcs"),
    ).toBe('\'a\' "b" "c" "d" \'e\' it\'s');
  });

  it("folds the hyphen, figure, en, em and bar dashes and the minus sign to hyphen-minus", () => {
    expect(foldQuotesAndDashes("a\u2010b\u2012c\u2013d\u2014e\u2015f\u2212g")).toBe("a-b-c-d-e-f-g");
  });

  it("applies NFKC first, so full-width forms and the non-breaking hyphen fold too", () => {
    expect(normalizeText("Ｃｏｌｄ\u3000ＲＯＯＭ B\u2011110")).toBe("cold room b-110");
    expect(normalizeText("\ufe63x\uff0d")).toBe("-x-");
  });

  it("collapses whitespace and folds case as the query rule does", () => {
    expect(normalizeText("  Cold \t room\n\u00a0B-110 ")).toBe("cold room b-110");
    expect(normalizeText("STRASSE")).toBe(normalizeText("Straße"));
  });

  it("is the query rule on text without quotes or dashes, and idempotent everywhere", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        expect(normalizeText(normalizeText(s))).toBe(normalizeText(s));
        if (!/[\u2010-\u2015\u2018-\u201f\u2039\u203a\u02bc\u00ab\u00bb\u2212]/.test(s.normalize("NFKC")))
          expect(normalizeText(s)).toBe(normalizeQuery(s));
      }),
      { numRuns: 500, seed: 26 },
    );
  });
});

describe("normalizeIdentifier (the scorer's rule for identifiers)", () => {
  it("applies NFKC and trims, nothing else", () => {
    expect(normalizeIdentifier(" ＬＯＴ-7\n")).toBe("LOT-7");
    expect(normalizeIdentifier("lot-7")).not.toBe(normalizeIdentifier("LOT-7"));
    expect(normalizeIdentifier("LOT\u20137")).toBe("LOT\u20137");
    expect(normalizeIdentifier("LOT  7")).toBe("LOT  7");
  });

  it("trims exactly Python's whitespace (U+0085 and U+001F yes, U+FEFF no)", () => {
    expect(normalizeIdentifier("\u0085\u001fA-1\u3000")).toBe("A-1");
    expect(normalizeIdentifier("\ufeffA-1")).toBe("\ufeffA-1");
  });
});
