/**
 * The secondary judge end to end on a small reference run: `score --judgments` adds the judge
 * section and leaves everything else — the gate above all — exactly as it was; the report shows it;
 * a judgment of another answer is refused; and `judge agreement` prints the kappa a separate
 * computation here gets. Judgments are written synthetically (deterministic ratings, no model).
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { judgeAgreement } from "../../src/commands/judge/agreement.ts";
import type { CliIo } from "../../src/commands/shell/io.ts";
import { FabenchError } from "../../src/core/index.ts";
import { parseEnvelope } from "../../src/envelope/index.ts";
import { JUDGMENT_FORMAT, type Judgment } from "../../src/judge/record.ts";
import { summarySchema } from "../../src/summary/index.ts";
import { runCli } from "../helpers/cli.ts";
import { copyFixture } from "../helpers/shared-fixtures.ts";
import { join, useSuiteTempDir, useTempDir } from "../helpers/temp.ts";

interface RunLine {
  semantic_task_id: string;
  catalog_size: number;
  condition: string;
  trial: number;
  status: "completed" | "error";
  final_text: string;
  metadata: { protocol_sha256: string };
}

const keyOf = (r: RunLine) => `${r.semantic_task_id}|${r.catalog_size}|${r.condition}|${r.trial}`;

function answerHash(r: RunLine): string | null {
  if (r.status === "error") return null;
  const parsed = parseEnvelope(r.final_text);
  return parsed.ok ? createHash("sha256").update(parsed.envelope.answer, "utf8").digest("hex") : null;
}

/**
 * One line per episode but every 23rd (left out: missing), every 17th malformed, the rest judged
 * with ratings that depend only on the record's position and `shift` (a second judge: shift 1
 * moves every third coherence rating and every other completeness rating).
 */
function judgments(records: RunLine[], shift = 0): Judgment[] {
  return records.flatMap((r, i): Judgment[] => {
    if (i % 23 === 5) return [];
    const malformed = i % 17 === 0;
    const answer = answerHash(r);
    return [
      {
        format: JUDGMENT_FORMAT,
        episode: {
          semantic_task_id: r.semantic_task_id,
          catalog_size: r.catalog_size,
          condition: r.condition,
          trial: r.trial,
        },
        answer_sha256: answer,
        status: answer === null ? "not_judged" : malformed ? "malformed" : "judged",
        reason: answer === null ? "envelope_not_json" : malformed ? "reply_not_json" : null,
        ratings:
          answer === null || malformed
            ? null
            : {
                coherence: 1 + ((i + (i % 3 === 0 ? shift : 0)) % 5),
                completeness: 1 + ((3 * i + 1 + shift * (i % 2)) % 5),
              },
        rationale: null,
        raw_reply: malformed ? "{" : null,
        redactions: 0,
        prompt_sha256: "b".repeat(64),
        protocol_sha256: r.metadata.protocol_sha256,
        judge: { agent: "command", model: `judge-${shift}`, reported_model: null, settings: {} },
        seed: 1,
        usage: null,
      },
    ];
  });
}

const write = (path: string, lines: readonly unknown[]) =>
  writeFileSync(path, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));

function capture(): { io: CliIo; out: () => string; err: () => string } {
  let out = "";
  let err = "";
  return {
    io: { out: (t) => void (out += t), err: (t) => void (err += t) },
    out: () => out,
    err: () => err,
  };
}

/** Quadratic-weighted kappa straight from its definition, with shares and normalised weights. */
function kappaByDefinition(pairs: Array<[number, number]>, min: number, max: number): number {
  const k = max - min + 1;
  const n = pairs.length;
  const O = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (const [a, b] of pairs)
    (O[a - min] as number[])[b - min] = ((O[a - min] as number[])[b - min] as number) + 1 / n;
  const rowShare = O.map((r) => r.reduce((s, x) => s + x, 0));
  const colShare = O[0]?.map((_, j) => O.reduce((s, r) => s + (r[j] as number), 0)) ?? [];
  let num = 0;
  let den = 0;
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) {
      const w = ((i - j) / (k - 1)) ** 2;
      num += w * ((O[i] as number[])[j] as number);
      den += w * (rowShare[i] as number) * (colShare[j] as number);
    }
  return 1 - num / den;
}

describe("fabench score --judgments and fabench judge agreement", () => {
  const folder = useSuiteTempDir();
  const temp = useTempDir();
  const run = () => join(folder(), "run.jsonl");
  const plain = () => join(folder(), "plain.json");
  let records: RunLine[] = [];
  beforeAll(async () => {
    // The reference run of every English task, built once per test run; scored here, since a
    // summary names the path of the run file it read.
    await copyFixture("en", folder());
    expect((await runCli(["score", run(), "--out", plain(), "--allow-incomplete"])).code).toBe(0);
    records = readFileSync(run(), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as RunLine);
  });

  it("adds the judge section and changes nothing else: the gate is byte-identical", async () => {
    const lines = judgments(records);
    const file = join(temp(), "j.jsonl");
    write(file, lines);
    const out = join(temp(), "judged.json");
    const scored = await runCli(["score", run(), "--out", out, "--allow-incomplete", "--judgments", file]);
    expect([scored.code, scored.err]).toEqual([0, ""]);
    const without = JSON.parse(readFileSync(plain(), "utf8"));
    const withJudge = JSON.parse(readFileSync(out, "utf8"));
    expect(summarySchema.safeParse(withJudge).success).toBe(true);
    expect(JSON.stringify(withJudge.gate)).toBe(JSON.stringify(without.gate));
    const { judge, ...rest } = withJudge;
    expect(rest).toEqual(without);
    expect(without.judge).toBeUndefined();

    const judged = lines.filter((l) => l.status === "judged");
    expect(judge.counts).toMatchObject({
      episodes: records.length,
      judged: judged.length,
      malformed: { total: lines.filter((l) => l.status === "malformed").length },
      missing: records.length - lines.length,
      not_in_runs: 0,
    });
    // The pooled mean coherence of the baseline, computed here from the lines themselves.
    const baseline = judge.baseline as string;
    const full = judged.filter((l) => l.episode.condition === baseline);
    const mean = full.reduce((s, l) => s + (l.ratings?.["coherence"] as number), 0) / full.length;
    expect(judge.levels.pooled[baseline]).toMatchObject({ judged: full.length });
    expect(judge.levels.pooled[baseline].means.coherence).toBeCloseTo(mean, 12);
    expect(Object.keys(judge.delta_intervals.pooled)).not.toContain(baseline);
  });

  it("shows the section in both reports, after the gate, and only when the summary has one", async () => {
    const file = join(temp(), "j.jsonl");
    write(file, judgments(records));
    const out = join(temp(), "judged.json");
    await runCli(["score", run(), "--out", out, "--allow-incomplete", "--judgments", file]);
    const title = "Secondary judge (coherence and completeness) — secondary: it never moves the gate";
    const md = join(temp(), "r.md");
    const html = join(temp(), "r.html");
    expect((await runCli(["report", out, "--format", "md", "--out", md])).code).toBe(0);
    expect((await runCli(["report", out, "--out", html])).code).toBe(0);
    const markdown = readFileSync(md, "utf8");
    expect(markdown).toContain(`### ${title}`);
    expect(markdown.indexOf(title)).toBeGreaterThan(markdown.indexOf("**verdict (point / interval)**"));
    const page = readFileSync(html, "utf8");
    expect(page).toContain(`<h2 id="judge">${title}</h2>`);
    expect(page.indexOf('id="judge"')).toBeGreaterThan(page.indexOf('id="gate"'));
    expect(page).not.toMatch(/<script|(src|href)="https?:/);
    const plainMd = join(temp(), "plain.md");
    expect((await runCli(["report", plain(), "--format", "md", "--out", plainMd])).code).toBe(0);
    expect(readFileSync(plainMd, "utf8")).not.toContain("Secondary judge");
  });

  it("refuses a judgment of another answer with exit 2, naming the episode, and writes nothing", async () => {
    const lines = judgments(records);
    const victim = lines.findIndex((l) => l.status === "judged");
    lines[victim] = { ...(lines[victim] as Judgment), answer_sha256: "e".repeat(64) };
    const file = join(temp(), "j.jsonl");
    write(file, lines);
    const out = join(temp(), "s.json");
    const scored = await runCli(["score", run(), "--out", out, "--allow-incomplete", "--judgments", file]);
    expect(scored.code).toBe(2);
    const episode = (lines[victim] as Judgment).episode;
    expect(scored.err).toContain(
      `${file}:${victim + 1}: answer_mismatch: episode ${keyOf({ ...episode } as RunLine)}`,
    );
    expect(existsSync(out)).toBe(false);
  });

  it("refuses judgments made under another protocol with exit 2", async () => {
    const lines = judgments(records).map((l) => ({ ...l, protocol_sha256: "f".repeat(64) }));
    const file = join(temp(), "j.jsonl");
    write(file, lines);
    const scored = await runCli([
      "score",
      run(),
      "--out",
      join(temp(), "s.json"),
      "--allow-incomplete",
      "--judgments",
      file,
    ]);
    expect(scored.code).toBe(2);
    expect(scored.err).toContain("judgment_protocol_mismatch");
  });

  it("prints, per dimension, the weighted kappa an independent computation gets", async () => {
    const a = judgments(records);
    const b = judgments(records, 1);
    const fileA = join(temp(), "a.jsonl");
    const fileB = join(temp(), "b.jsonl");
    write(fileA, a);
    // The second judge skipped its first 10 lines: those are judged in one file only.
    write(fileB, b.slice(10));
    const byKey = new Map(b.slice(10).map((l) => [JSON.stringify(l.episode), l]));
    const pairs = (dimension: string) =>
      a.flatMap((x): Array<[number, number]> => {
        const y = byKey.get(JSON.stringify(x.episode));
        return x.status === "judged" && y?.status === "judged"
          ? [[x.ratings?.[dimension] as number, y.ratings?.[dimension] as number]]
          : [];
      });
    const json = capture();
    expect(await judgeAgreement({ files: [fileA, fileB], json: true }, json.io)).toBe(0);
    const doc = JSON.parse(json.out());
    for (const dimension of ["coherence", "completeness"]) {
      const row = doc.dimensions.find((d: { id: string }) => d.id === dimension);
      expect(row.pairs).toBe(pairs(dimension).length);
      expect(row.weighted_kappa).toBeCloseTo(kappaByDefinition(pairs(dimension), 1, 5), 12);
    }
    expect(doc.episodes.judged_in_both).toBe(pairs("coherence").length);
    expect(doc.episodes.only_in_first).toBe(10);
    const cli = await runCli(["judge", "agreement", fileA, fileB, "--json"]);
    expect([cli.code, JSON.parse(cli.out)]).toEqual([0, doc]);

    const text = capture();
    expect(await judgeAgreement({ files: [fileA, fileB] }, text.io)).toBe(0);
    const coherence = text
      .out()
      .split("\n")
      .find((l) => l.startsWith("coherence"));
    const kappa = kappaByDefinition(pairs("coherence"), 1, 5);
    const shown = Number(kappa.toFixed(3));
    expect(coherence).toContain(`${shown < 0 ? "−" : " "}${Math.abs(shown).toFixed(3)}`);
    expect(text.out()).toContain("Landis & Koch");
  });

  it("refuses to compare two judgments of different answers (exit 2)", async () => {
    const a = judgments(records);
    const b = judgments(records, 1);
    b[3] = { ...(b[3] as Judgment), answer_sha256: "e".repeat(64) };
    const fileA = join(temp(), "a.jsonl");
    const fileB = join(temp(), "b.jsonl");
    write(fileA, a);
    write(fileB, b);
    const io = capture();
    const refused = judgeAgreement({ files: [fileA, fileB] }, io.io);
    await expect(refused).rejects.toBeInstanceOf(FabenchError);
    await expect(refused).rejects.toMatchObject({ kind: "input", code: "answer_mismatch" });
    expect(io.out()).toBe("");
    // Through the CLI: exit 2, one line naming the file, the line and the episode.
    const cli = await runCli(["judge", "agreement", fileA, fileB]);
    expect(cli.code).toBe(2);
    expect(cli.err).toMatch(
      new RegExp(`^${fileB}:4: answer_mismatch: episode \\S+\\|\\d+\\|\\S+\\|1: `, "m"),
    );
  });
});
