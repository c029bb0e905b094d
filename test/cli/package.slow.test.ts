/**
 * fabench from someone else's project: the bundled files are the defaults from any working
 * directory, outputs land in the working directory, and `demo` writes only under --out. And in a
 * project that installed the packed tarball, the commands that regenerate bundled files leave the
 * installed package byte-identical (#25 item 5).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { canonicalSha256 } from "../../src/core/index.ts";
import { join, useSuiteTempDir, useTempDir } from "../helpers/temp.ts";
import { fileHashes } from "../helpers/file-hashes.ts";
import { linkProblems, formatProblem } from "../helpers/docs-check.ts";

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

describe("the demo transcripts of docs/demo.md and the README", () => {
  const temp = useTempDir();

  it("are what `fabench demo` prints, line for line where they do not elide", { timeout: 120_000 }, () => {
    const run = fabench(temp(), "demo");
    expect(run.status).toBe(0);
    // The package's own path is printed before bundled files; the docs leave it out.
    const printed = run.stdout.replaceAll(`${resolve(".")}/`, "").split("\n");
    // docs/demo.md shows the whole transcript; the README the same in brief.
    for (const [file, least] of [
      ["docs/demo.md", 40],
      ["README.md", 15],
    ] as const) {
      const text = readFileSync(file, "utf8");
      const start = text.indexOf("[1/10] Check the frozen authoring plan");
      expect(start, file).toBeGreaterThan(0);
      const transcript = text.slice(start, text.indexOf("```", start)).trimEnd().split("\n");
      const shown = transcript.filter((line) => line !== "..." && line !== "");
      expect(shown.length, file).toBeGreaterThan(least);
      expect(
        shown.filter((line) => !printed.includes(line)),
        file,
      ).toEqual([]);
      // The step headers in order, as printed.
      expect(
        transcript.filter((l) => /^\[\d+\/\d+\]/.test(l)),
        file,
      ).toEqual(printed.filter((l) => /^\[\d+\/\d+\]/.test(l)));
    }
  });
});

describe("a project that installed the packed tarball (#25 item 5)", () => {
  const temp = useSuiteTempDir();
  let project = "";
  let installed = "";
  beforeAll(() => {
    // `npm pack` builds dist/ (prepack) and packs what package.json's `files` ships. The tarball is
    // unpacked where `npm install` puts it; its dependencies are this clone's own, linked in, so
    // nothing is fetched.
    const dir = temp();
    execFileSync("npm", ["pack", "--silent", "--pack-destination", dir], { stdio: "ignore" });
    project = join(dir, "project");
    installed = join(project, "node_modules", "fabench");
    mkdirSync(installed, { recursive: true });
    execFileSync("tar", ["-xzf", join(dir, "fabench-0.1.0.tgz"), "-C", installed, "--strip-components=1"]);
    for (const name of readdirSync("node_modules"))
      if (name !== ".bin" && name !== "fabench" && !name.startsWith("."))
        symlinkSync(resolve("node_modules", name), join(project, "node_modules", name));
    copyFileSync("examples/routers/word-overlap.mjs", join(project, "my-router.mjs"));
  }, 240_000);

  it("ships docs/, so every relative link of its README and docs resolves in the installed package", () => {
    const files = {
      exists: (path: string) => existsSync(join(installed, path)),
      read: (path: string) => readFileSync(join(installed, path), "utf8"),
    };
    const pages = ["README.md", ...readdirSync(join(installed, "docs")).map((f) => `docs/${f}`)];
    expect(pages.length).toBeGreaterThan(10);
    expect(pages.flatMap((page) => linkProblems(page, files.read(page), files)).map(formatProblem)).toEqual(
      [],
    );
  });

  it("conditions freeze, plan generate, catalog build and corpus generate without --out leave every file of node_modules/fabench byte-identical", {
    timeout: 240_000,
  }, () => {
    const npx = (...args: string[]) =>
      spawnSync(process.execPath, [join(installed, "bin/fabench.mjs"), ...args], {
        cwd: project,
        encoding: "utf8",
        env: { PATH: process.env["PATH"] ?? "" },
      });
    expect(existsSync(join(installed, "src"))).toBe(false); // it runs the compiled dist/
    const before = fileHashes(installed);
    expect(before.length).toBeGreaterThan(100);
    const corpus = JSON.parse(readFileSync(join(installed, "tasks/final-answer-corpus.json"), "utf8")) as {
      generator_source_revision: string;
    };
    const steps: Array<{ argv: string[]; writes: string; flag: string }> = [
      {
        argv: ["conditions", "freeze", "--router", "command:./my-router.mjs"],
        writes: "manifests/condition-manifest.json",
        flag: "--out",
      },
      { argv: ["plan", "generate"], writes: "manifests/authoring-plan.json", flag: "--out" },
      { argv: ["catalog", "build"], writes: "tasks/catalogs", flag: "--catalogs" },
      {
        argv: ["corpus", "generate", "--source-revision", corpus.generator_source_revision],
        writes: "tasks/final-answer-corpus.json",
        flag: "--out",
      },
    ];
    for (const { argv, writes, flag } of steps) {
      const run = npx(...argv);
      expect([argv.join(" "), run.status]).toEqual([argv.join(" "), 0]);
      expect(run.stderr).toContain(
        `note: fabench is installed as a package, so ${flag} defaults to ${join(project, writes)} in the working directory; its bundled ${writes} is never rewritten\n`,
      );
      expect(run.stdout).toContain(`wrote ${join(project, writes)}`);
      expect(fileHashes(installed)).toEqual(before);
    }
    // Beside the user, what the bundled inputs make: the package's own plan, catalogs and corpus.
    for (const file of [
      "manifests/authoring-plan.json",
      "tasks/catalogs/100.json",
      "tasks/catalogs/250.json",
      "tasks/final-answer-corpus.json",
    ])
      expect(readFileSync(join(project, file)).equals(readFileSync(join(installed, file))), file).toBe(true);
    // What a command writes by default is what the next reads by default (#35): the manifest
    // written beside the user is the one the next command reads, and it says so.
    const show = npx("conditions", "show", "--task", "v4-multi_source_comparison-de-02");
    expect(show.status).toBe(0);
    expect(show.stderr).toBe(
      "note: reading ./manifests/condition-manifest.json in the working directory, where an installed fabench writes it by default, not its bundled manifests/condition-manifest.json\n",
    );
    expect(fileHashes(installed)).toEqual(before);
  });
});
