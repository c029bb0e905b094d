/**
 * The docs hold: every relative link in README.md, ARCHITECTURE.md and docs/*.md resolves (file and
 * heading), every `fabench …` command line in their fenced blocks parses against the CLI's own
 * commands and options, the README stays a page a newcomer reads, and every docs page is in its
 * index. The checker (test/helpers/docs-check.ts) is tested on strings first, so a broken link or
 * a flag the CLI lacks is shown to fail it.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildProgram } from "../src/cli.ts";
import {
  commandProblems,
  commandTree,
  type DocFiles,
  fabenchCommandLines,
  formatProblem,
  githubSlug,
  headingAnchors,
  linkProblems,
} from "./helpers/docs-check.ts";

const silent = { out: () => {}, err: () => {} };
/** The CLI's command tree as `main` builds it; nothing is parsed or run. */
const tree = commandTree(buildProgram(silent, () => {}));

const DOCS = [
  "README.md",
  "ARCHITECTURE.md",
  ...readdirSync("docs")
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const disk: DocFiles = { exists: existsSync, read: (path) => readFileSync(path, "utf8") };

describe("the docs checker", () => {
  const memory = (files: Record<string, string>): DocFiles => ({
    exists: (path) => path in files || Object.keys(files).some((f) => f.startsWith(`${path}/`)),
    read: (path) => files[path] as string,
  });

  it("makes GitHub's anchors: lower case, punctuation but - and _ dropped, spaces to -", () => {
    expect(githubSlug("`fabench score`, `fabench gate`, `fabench report`")).toBe(
      "fabench-score-fabench-gate-fabench-report",
    );
    expect(githubSlug("The Discover → Call benchmark")).toBe("the-discover--call-benchmark");
    expect(githubSlug("The skewness-corrected stratified t (`skew_t`)")).toBe(
      "the-skewness-corrected-stratified-t-skew_t",
    );
    expect(githubSlug("The rule that picks the gate's interval")).toBe(
      "the-rule-that-picks-the-gates-interval",
    );
    expect([...headingAnchors("# A\n\n## Run\n\n```sh\n# not a heading\n```\n\n## Run\n")]).toEqual([
      "a",
      "run",
      "run-1",
    ]);
  });

  it("reports a link to a missing file and to a missing heading, and passes good ones", () => {
    const files = {
      "docs/a.md": [
        "# A",
        "",
        "See [b](b.md), [b's part](b.md#part-two), [here](#a) and [the web](https://example.org/x.md).",
        "See [gone](c.md) and [b's lost part](b.md#part-three).",
        "`[not a link](nowhere.md)`",
        "```sh",
        "[not a link either](nowhere.md)",
        "```",
      ].join("\n"),
      "docs/b.md": "# B\n\n## Part two\n",
    };
    expect(linkProblems("docs/a.md", files["docs/a.md"], memory(files)).map(formatProblem)).toEqual([
      "docs/a.md:4: broken link c.md: docs/c.md does not exist",
      "docs/a.md:4: broken link b.md#part-three: docs/b.md has no heading #part-three",
    ]);
    expect(linkProblems("README.md", "[a](docs/a.md#a) [up](ARCHITECTURE.md)", memory(files))).toEqual([
      { file: "README.md", line: 1, message: "broken link ARCHITECTURE.md: ARCHITECTURE.md does not exist" },
    ]);
  });

  it("reports a flag the CLI does not have and a subcommand it does not have", () => {
    const doc = [
      "```sh",
      "fabench score --no-such-flag x",
      "npm run -s fabench -- runs merj a b --out c",
      "```",
    ].join("\n");
    expect(commandProblems("docs/x.md", doc, tree).map(formatProblem)).toEqual([
      'docs/x.md:2: unknown option --no-such-flag for "fabench score"',
      'docs/x.md:3: fabench runs merj a b --out c: no command "merj" under "fabench runs"',
    ]);
  });

  it("reads command lines as the shell and the CLI would, and finds no problem in good ones", () => {
    const doc = [
      "```sh",
      "npx fabench run --agent command:./my-agent --agent-arg --fast \\",
      "    --out runs/mine.jsonl   # --agent-arg takes --fast as its value",
      "cat > r.mjs <<'JS'",
      "fabench score --not-run-this-is-a-heredoc",
      "JS",
      "echo '{}' | node bin/fabench.mjs envelope score --corpus c.json --task T && echo fabench --nope",
      "QVERIS_API_KEY=$KEY npm run -s fabench -- gate s.json [--conveyor FILE] [--json]",
      "fabench power (--runs a.jsonl… | --summary s.json) [--method skew_t]",
      "```",
      "",
      "```",
      "$ fabench gate s.json",
      "fabench serve: output, not a command",
      "```",
      "",
      "```json",
      '{"cmd": "fabench score --nope"}',
      "```",
    ].join("\n");
    expect(fabenchCommandLines(doc).map(({ line, args }) => [line, args[0]])).toEqual([
      [2, "run"],
      [7, "envelope"],
      [8, "gate"],
      [9, "power"],
      [13, "gate"],
    ]);
    expect(commandProblems("docs/x.md", doc, tree)).toEqual([]);
    // The synopsis alternative after ` | ` is checked as part of the same command.
    expect(
      commandProblems("d.md", "```\nfabench power (--runs a | --sumary s)\n```", tree).map((p) => p.message),
    ).toEqual(['unknown option --sumary for "fabench power"']);
    expect(commandProblems("d.md", "```\nfabench score x --out\n```", tree).map((p) => p.message)).toEqual([
      '--out of "fabench score" needs a value',
    ]);
  });
});

describe("the docs", () => {
  it("link only to files and headings that exist", () => {
    const problems = DOCS.flatMap((file) => linkProblems(file, readFileSync(file, "utf8"), disk));
    expect(problems.map(formatProblem)).toEqual([]);
  });

  it("show only fabench command lines the CLI parses: its subcommands, its options", () => {
    const lines = DOCS.flatMap((file) => fabenchCommandLines(readFileSync(file, "utf8")));
    // Enough of them to mean something: the docs show over ninety command lines.
    expect(lines.length).toBeGreaterThan(90);
    const problems = DOCS.flatMap((file) => commandProblems(file, readFileSync(file, "utf8"), tree));
    expect(problems.map(formatProblem)).toEqual([]);
  });

  it("keep the README a page: at most 250 lines, no issue numbers or skew_t on its first screen", () => {
    const lines = readFileSync("README.md", "utf8").trimEnd().split("\n");
    expect(lines.length).toBeLessThanOrEqual(250);
    const firstScreen = lines.slice(0, 40).join("\n");
    expect(firstScreen).not.toMatch(/#\d{2,}/);
    expect(firstScreen).not.toContain("skew_t");
    for (const command of ["npm run demo", "npm test"]) expect(firstScreen).toContain(command);
  });

  it("index every docs page from the README", () => {
    const readme = readFileSync("README.md", "utf8");
    const linked = new Set([...readme.matchAll(/\]\((docs\/[^)#\s]+\.md)/g)].map((m) => m[1]));
    expect(DOCS.filter((f) => f.startsWith("docs/") && !linked.has(f))).toEqual([]);
  });
});
