/**
 * The regex translation against CPython itself: every pattern the search accepts must compile in
 * Python and match exactly the same texts — the bundled 250 catalog's search fields plus texts
 * chosen for the known differences (newlines, Unicode word and space characters, case pairs).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Endpoint } from "../../../src/conditions/catalog/index.ts";
import {
  compilePythonPattern,
  queryFromRequest,
  searchFields,
} from "../../../src/conditions/search/index.ts";
import { HAS_PYTHON3 } from "../../helpers/python.ts";

const endpoints = (JSON.parse(readFileSync("tasks/catalogs/250.json", "utf8")) as { endpoints: Endpoint[] })
  .endpoints;
const tasks = (
  JSON.parse(readFileSync("tasks/final-answer-corpus.json", "utf8")) as { tasks: Array<{ query: string }> }
).tasks;

const TEXTS = [
  ...endpoints.flatMap((e) => searchFields(e).map((f) => f.text)),
  ...[
    "a\n",
    "a\nb",
    "x\r\ny",
    "\u2028",
    "İstanbul",
    "ısı",
    "ſtop",
    "K kelvin",
    "ΣΑΣ",
    "straße",
    "日本語テキスト",
  ],
  ...["foo_bar9", "é.", "tab\there", " ", "12٣", "a{2}", "x{,2}y", "]", "-", "AbC", "\x1c", "\u200b"],
];

const PATTERNS = [
  ...[
    "weather",
    "(?i)materials",
    "get_.*_data",
    "^materials",
    "search$",
    "a$",
    "\\Aa\\Z",
    "(?m)^b",
    "(?m)a$",
  ],
  ...[
    "(?s)a.b",
    "a.b",
    "x.y",
    "\\bkelvin\\b",
    "\\Bnb",
    "\\w+_\\w",
    "\\W",
    "\\s",
    "\\S",
    "\\d",
    "\\D",
    "[\\d]",
  ],
  ...[
    "[^\\w]",
    "(?i)i",
    "(?i)s",
    "(?i)k",
    "(?i)[a-z]",
    "(?i)[^a-z]",
    "(?i)[h-l]",
    "(?i)istanbul",
    "(?i)日本",
  ],
  ...[
    "(?x) m a t # comment",
    "(?x)a [ ] b",
    "a{2}",
    "a\\{2\\}",
    "x{,2}y",
    "x{,}y",
    "\\]",
    "]",
    "[]a]",
    "[^]a]",
  ],
  ...["[a-]", "[-a]", "\\-", "a{", "{", "a{}", "(?P<n>mat)erials__(?P=n)", "(mat)\\1", "(?=mat)materials"],
  ...["(?!mat)m", "(?<=__)search", "(?<!__)search", "(?<=ab|bc)d", "a*?b", "a+?", "a??", "\\x41", "\\u0041"],
  ...["\\U00000041", "(?#c)mat", "mat(?#c)*", "[\\b]", "\\é", "a|", "|", "()", "(?:)", "(?i)STRASSE", "\\t"],
  ...["(?s).", ".", "\\r", "\\u2028", "[\\s\\S]", "[\\W]", "[\\S]", "[^\\W\\d]", "(?i)[^\\S]", "(?i)[\\WA]"],
  ...[
    "(?i)[^i]",
    "(?u)abc",
    "(?im)^B",
    "\\d+",
    "(?x)\\ ",
    "(?x)[ ]",
    "(ab)+c",
    "a(?=b)",
    "$",
    "^$",
    "(?m)^$",
  ],
  ...[
    "[&&]",
    "[a--b]",
    "[|]",
    "[(]",
    "[{}]",
    "[/]",
    "[\\\\]",
    "[\\[]",
    "[[]",
    "[~~]",
    "(?i)[0-9]",
    "(?i)[A-z]",
  ],
  ...[".*weather.*", ".*?a.*", "(?i).*WEATHER", "a*", ".*", "x*weather|.*y", "(a)*b\\w*", "^.*x.*$"],
  // Python refuses these: the search must too.
  ...[
    "[",
    "a**",
    "*a",
    "^*",
    "(a",
    "a)",
    "\\q",
    "[z-a]",
    "(?<=a|bc)d",
    "(?P=x)",
    "(a\\1)",
    "a(?i)b",
    "(?<=x+)y",
  ],
  ...tasks.map((t) => queryFromRequest(t, "regex")).filter((p) => p !== ""),
];

describe("the regex translation against CPython", () => {
  it.skipIf(!HAS_PYTHON3)(
    "accepts only what Python compiles, and matches exactly what Python matches",
    () => {
      const python = spawnSync("python3", ["scripts/python/regex_reference.py"], {
        input: JSON.stringify({ patterns: PATTERNS, texts: TEXTS }),
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
      });
      expect(python.status).toBe(0);
      const answers = JSON.parse(python.stdout) as Array<{ error?: string; matches?: string }>;
      const disagreements: string[] = [];
      let accepted = 0;
      PATTERNS.forEach((pattern, i) => {
        const ours = compilePythonPattern(pattern, 473);
        const theirs = answers[i] ?? {};
        if (!ours.ok) return; // refusing a pattern Python accepts is allowed (named in the message)
        accepted++;
        if (theirs.error !== undefined)
          disagreements.push(`${pattern}: accepted, Python says ${theirs.error}`);
        else if (TEXTS.map((t) => (ours.regexp.test(t) ? "1" : "0")).join("") !== theirs.matches)
          disagreements.push(`${pattern}: matches differ`);
      });
      expect(disagreements).toEqual([]);
      expect(accepted).toBeGreaterThan(200);
    },
    120_000,
  );
});
