/**
 * fabench from someone else's project: the bundled files are the defaults from any working
 * directory, outputs land in the working directory, and `demo` writes only under --out.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { canonicalSha256 } from "../../src/core/index.ts";
import { join, useTempDir } from "../helpers/temp.ts";

const BIN = resolve("bin/fabench.mjs");
const fabench = (cwd: string, ...args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: "utf8",
    env: { PATH: process.env["PATH"] ?? "" },
  });

describe("fabench from another directory", () => {
  const temp = useTempDir();

  it("prints its version and the bundled protocol's hash", () => {
    const run = fabench(temp(), "--version");
    const protocol = JSON.parse(readFileSync("manifests/preregistration.json", "utf8")) as {
      protocol_id: string;
    };
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      `fabench 0.1.0 (protocol ${protocol.protocol_id} sha256 ${canonicalSha256(protocol)})\n`,
    );
  });

  it("checks the bundled plan and corpus with no path given", { timeout: 60_000 }, () => {
    const dir = temp();
    expect(fabench(dir, "plan", "generate", "--check").status).toBe(0);
    const check = fabench(dir, "corpus", "check");
    expect(check.status).toBe(0);
    expect(check.stdout).toMatch(
      /tasks\/final-answer-corpus\.json: ok, 144 tasks pass every identity and content check/,
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it("runs the demo writing only under --out, folders included", { timeout: 120_000 }, () => {
    const dir = temp();
    const run = fabench(dir, "demo", "--out", "out/demo");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("demo: the pipeline worked. Verdict: BLOCKED");
    expect(readdirSync(dir)).toEqual(["out"]);
    expect(readdirSync(join(dir, "out/demo")).sort()).toEqual([
      "identity-freeze.json",
      "reference.jsonl",
      "reference.report.html",
      "reference.summary.json",
    ]);
    expect(existsSync(join(dir, "out/demo/reference.jsonl"))).toBe(true);
  });
});

describe("the README's demo transcript", () => {
  const temp = useTempDir();

  it("is what `fabench demo` prints, line for line where it does not elide", { timeout: 120_000 }, () => {
    const readme = readFileSync("README.md", "utf8");
    const start = readme.indexOf("[1/10] Check the frozen authoring plan");
    const transcript = readme.slice(start, readme.indexOf("```", start)).trimEnd().split("\n");
    const run = fabench(temp(), "demo");
    expect(run.status).toBe(0);
    // The package's own path is printed before bundled files; the README leaves it out.
    const printed = run.stdout.replaceAll(`${resolve(".")}/`, "").split("\n");
    const shown = transcript.filter((line) => line !== "..." && line !== "");
    expect(shown.length).toBeGreaterThan(40);
    expect(shown.filter((line) => !printed.includes(line))).toEqual([]);
    // The step headers in order, as printed.
    expect(transcript.filter((l) => /^\[\d+\/\d+\]/.test(l))).toEqual(
      printed.filter((l) => /^\[\d+\/\d+\]/.test(l)),
    );
  });
});
