import { describe, expect, it } from "vitest";
import {
  catalogSearch,
  compilePythonPattern,
  MAX_BACKTRACK_PATHS,
} from "../../../src/conditions/search/index.ts";
import { endpoint } from "./fixtures.ts";

const matches = (pattern: string, text: string, longestField = 500): boolean => {
  const compiled = compilePythonPattern(pattern, longestField);
  if (!compiled.ok) throw new Error(`${pattern}: ${compiled.message}`);
  return compiled.regexp.test(text);
};
const refusal = (pattern: string, longestField = 500): string => {
  const compiled = compilePythonPattern(pattern, longestField);
  return compiled.ok ? "accepted" : compiled.message;
};

describe("Python re.search patterns, translated", () => {
  // Expected values are CPython 3.11's `bool(re.search(pattern, text))`, one by one.
  const CPYTHON: ReadonlyArray<readonly [string, string, boolean]> = [
    ["weather", "get_weather", true],
    ["weather", "Weather", false],
    ["(?i)weather", "Weather", true],
    ["get_.*_data", "get_customer_data", true],
    ["a$", "ba\n", true],
    ["a$", "ba\nc", false],
    ["a\\Z", "ba\n", false],
    ["(?m)^b", "a\nb", true],
    ["^b", "a\nb", false],
    ["a.b", "a\rb", true],
    ["a.b", "a\nb", false],
    ["(?s)a.b", "a\nb", true],
    ["a.b", "a\u2028b", true],
    ["\\bweather\\b", "site weather station", true],
    ["\\bweather\\b", "weathers", false],
    ["\\b\u00e9", "caf\u00e9 \u00e9", true],
    ["\\w\\b", "\u65e5\u672c", true],
    ["\\d", "\u0661", true],
    ["\\s", "\u001c", true],
    ["\\s", "\u200b", false],
    ["(?i)i", "\u0130", true],
    ["(?i)i", "\u0131", true],
    ["(?i)s", "\u017f", true],
    ["(?i)k", "\u212a", true],
    ["(?i)[^a-z]", "K", false],
    ["(?i)[h-l]", "\u0130", true],
    ["(?x) get \\ data # comment", "get data", true],
    ["(?x)[ ]", "a b", true],
    ["x{,2}y", "xxy", true],
    ["a{", "a{", true],
    ["a{}", "a{}", true],
    ["[]a]", "]", true],
    ["[a-]", "-", true],
    ["(?P<n>ab)c(?P=n)", "abcab", true],
    ["(?P<n>ab)c(?P=n)", "abcaB", false],
    ["(?<=__)search", "materials__search", true],
    ["(?<!__)search", "research", true],
    ["(?<=ab|bc)d", "bcd", true],
    ["[\\s\\S]", "x", true],
    ["[^\\W\\d]", "5a", true],
    ["[^\\W\\d]", "5_", true],
    ["\\x41\\u0042\\U00000043", "ABC", true],
    ["(?#note)mat", "materials", true],
    ["mat(?#note)*s", "mas", true],
  ];
  it.each(CPYTHON)("%j on %j is %s, as in CPython", (pattern, text, expected) => {
    expect(matches(pattern, text)).toBe(expected);
  });

  it("refuses what Python refuses", () => {
    expect(refusal("[")).toBe("unterminated character set");
    expect(refusal("a**")).toBe("multiple repeat");
    expect(refusal("*a")).toBe("nothing to repeat");
    expect(refusal("^*")).toBe("nothing to repeat");
    expect(refusal("(a")).toBe("missing ), unterminated subpattern");
    expect(refusal("a)")).toBe("unbalanced parenthesis");
    expect(refusal("\\q")).toBe("bad escape \\q");
    expect(refusal("[z-a]")).toBe("bad character range");
    expect(refusal("(?<=a|bc)d")).toBe("look-behind requires a fixed-width pattern");
    expect(refusal("(?P=x)")).toBe("unknown group name x");
    expect(refusal("(a\\1)")).toBe("cannot refer to an open group");
    expect(refusal("a(?i)b")).toMatch(/only at the start of the pattern/);
  });

  it("refuses, naming it, what it cannot translate exactly", () => {
    expect(refusal("a*+")).toMatch(/possessive/);
    expect(refusal("(?>a)")).toMatch(/atomic groups/);
    expect(refusal("(?(1)a|b)")).toMatch(/conditional groups/);
    expect(refusal("(?i:abc)")).toMatch(/inline flags/);
    expect(refusal("(?a)abc")).toMatch(/\(\?a\)/);
    expect(refusal("\\N{DASH}")).toMatch(/named character escapes/);
    expect(refusal("\\0")).toMatch(/octal/);
    expect(refusal("(?i)straße")).toMatch(/non-ASCII/);
    expect(refusal("(a)|\\1")).toMatch(/group reference 1/);
    expect(refusal("(?i)(a)\\1")).toMatch(/under \(\?i\)/);
    expect(refusal("(?=a)*")).toMatch(/repeated lookaround/);
  });

  it("bounds backtracking: no repeat in a repeat, and (n + 1) × ways ≤ the budget for the longest field n", () => {
    expect(MAX_BACKTRACK_PATHS).toBe(10_000_000);
    expect(refusal("(a+)+b")).toMatch(/repeat holding another repeat/);
    expect(refusal("x(a|aa)*b")).toMatch(/repeat holding another repeat or an alternation/);
    // One unbounded repeat: (473 + 1)² = 224,676 paths. Two in a row: 474³ ≈ 1.06e8 > 1e7.
    expect(refusal("get_.*_data", 473)).toBe("accepted");
    expect(refusal("a.*b.*c", 473)).toMatch(/too many ways to backtrack/);
    // A repeat of minimum 0 at either end changes only where a match spans, not whether: dropped.
    expect(refusal(".*weather.*", 473)).toBe("accepted");
    expect(refusal(".*a.*b.*c.*", 473)).toMatch(/too many ways to backtrack/);
    expect(refusal(".*a.+b.*|.*x.*", 473)).toBe("accepted");
    expect(matches(".*?weather.*", "site_weather__conditions")).toBe(true);
    expect(matches(".*", "")).toBe(true);
    // Over fields of at most 100 characters the same pattern is bounded: 101³ ≈ 1.03e6.
    expect(refusal("a.*b.*c", 100)).toBe("accepted");
    // Alternatives add: 20 branches of one repeat each are 20 × 474² ≈ 4.5e6.
    const twenty = Array.from({ length: 20 }, (_, i) => `w${i}.*x`).join("|");
    expect(refusal(twenty, 473)).toBe("accepted");
  });
});

describe("the regex search", () => {
  const CATALOG = [
    endpoint("zeta.lookup", "Lookup service.", "Find a thing.", {
      weather_code: { type: "string", description: "a code" },
    }),
    endpoint("eta.lookup", "Lookup service.", "Find a thing.", {
      code: { type: "string", description: "the weather code" },
    }),
    endpoint("beta.forecast", "Forecasts.", "The weather tomorrow."),
    endpoint("site_weather.now", "Site station.", "Conditions now."),
    endpoint("alpha.other", "Other.", "Nothing."),
  ];
  const search = catalogSearch("regex", CATALOG);

  it("ranks by the field that matched (name, description, argument name, argument description), then route id", () => {
    const outcome = search.search("weather", 10);
    expect(outcome.ok && outcome.hits.map((h) => h.route_id)).toEqual([
      "site_weather.now",
      "beta.forecast",
      "zeta.lookup",
      "eta.lookup",
    ]);
  });

  it("is case-sensitive unless the pattern starts with (?i), as Anthropic's regex tool", () => {
    expect(search.search("WEATHER", 5)).toEqual({ ok: true, hits: [] });
    const insensitive = search.search("(?i)WEATHER", 1);
    expect(insensitive.ok && insensitive.hits.map((h) => h.function_name)).toEqual(["site_weather__now"]);
  });

  it("refuses an empty pattern, one over 200 characters, and an invalid one", () => {
    expect(search.search("", 5)).toMatchObject({ ok: false, code: "empty_query" });
    expect(search.search("a".repeat(200), 5)).toEqual({ ok: true, hits: [] });
    expect(search.search("a".repeat(201), 5)).toEqual({
      ok: false,
      code: "pattern_too_long",
      message: "the pattern has 201 characters; at most 200",
    });
    expect(search.search("(?>x)", 5)).toMatchObject({ ok: false, code: "invalid_pattern" });
  });
});
