/**
 * #25 item 5: an installed fabench never writes into its package. A command whose default output
 * is a bundled file writes the same relative path in the working directory and says so; a file the
 * user names wins; a same-named file in the working directory that a bundled input default passes
 * over is named in a warning; --help says which defaults are bundled; a failed check's advice never
 * leads into the package. fabench runs in process against a temporary copy of its bundled files,
 * placed as an installed package (or as a development checkout, which keeps rewriting in place).
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command, Option } from "commander";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildProgram } from "../../src/cli.ts";
import { isBundledName, isInstalledRoot, placeTool } from "../../src/core/index.ts";
import { runCli } from "../helpers/cli.ts";
import { fileHashes } from "../helpers/file-hashes.ts";
import { useSuiteTempDir, useTempDir } from "../helpers/temp.ts";

const REPO = resolve(".");
const SHIPPED = ["package.json", "manifests", "tasks", "schemas", "examples"];

/** A copy of fabench's bundled files at `<dir>/node_modules/fabench`, and a user's project at `<dir>/project`. */
function layout(dir: string): { root: string; project: string } {
  const root = join(dir, "node_modules", "fabench");
  for (const name of SHIPPED) cpSync(join(REPO, name), join(root, name), { recursive: true });
  const project = join(dir, "project");
  mkdirSync(project, { recursive: true });
  return { root, project };
}

const restores: Array<() => void> = [];
let home: string | undefined;
// Runs after each describe's own afterEach, which may already have removed the folder we are in.
afterEach(() => {
  while (restores.length > 0) restores.pop()?.();
  if (home !== undefined) process.chdir(home);
  home = undefined;
});

/** The working directory is `dir` until the test ends. */
function chdir(dir: string): void {
  home ??= process.cwd();
  process.chdir(dir);
}

/** fabench placed at `root` (installed or a checkout), run from `cwd`, until the test ends. */
function place(root: string, installed: boolean, cwd: string): void {
  restores.push(placeTool({ root, installed }));
  chdir(cwd);
}

const bytes = (path: string) => readFileSync(path);

describe("an installed fabench writes its default outputs beside the user, never into the package", () => {
  const temp = useSuiteTempDir();
  let root = "";
  let project = "";
  let before: string[] = [];
  beforeAll(() => {
    ({ root, project } = layout(temp()));
    before = fileHashes(root);
  });

  // Each command regenerates one bundled file from the bundled inputs; its copy beside the user
  // is therefore byte for byte the bundled one, and the package stays as it was.
  const recorded = () =>
    (
      JSON.parse(readFileSync(join(REPO, "tasks/final-answer-corpus.json"), "utf8")) as {
        generator_source_revision: string;
      }
    ).generator_source_revision;
  const cases: Array<{ argv: () => string[]; writes: string[]; flag: string }> = [
    { argv: () => ["plan", "generate"], writes: ["manifests/authoring-plan.json"], flag: "--out" },
    {
      argv: () => ["catalog", "build"],
      writes: ["tasks/catalogs/100.json", "tasks/catalogs/250.json"],
      flag: "--catalogs",
    },
    {
      argv: () => ["conditions", "freeze", "--router", "keyword"],
      writes: ["manifests/condition-manifest.json"],
      flag: "--out",
    },
    {
      argv: () => ["corpus", "generate", "--source-revision", recorded()],
      writes: ["tasks/final-answer-corpus.json"],
      flag: "--out",
    },
    {
      argv: () => ["discover-call", "export"],
      writes: ["tasks/discover-call/final-answer-v4.jsonl"],
      flag: "--out",
    },
  ];
  for (const [index, { argv, writes, flag }] of cases.entries())
    it(`${argv().slice(0, 2).join(" ")} without ${flag}`, async () => {
      // A project of its own, so no earlier case's output sits where this one looks.
      const project = join(temp(), `project-${index}`);
      mkdirSync(project);
      place(root, true, project);
      const run = await runCli(argv());
      expect([run.code, run.err.match(/^\w+: .*$/gm)]).toEqual([0, [expect.stringMatching(/^note: /)]]);
      expect(fileHashes(root)).toEqual(before);
      const folder = writes[0]?.startsWith("tasks/catalogs/") ? "tasks/catalogs" : (writes[0] as string);
      expect(run.err).toContain(
        `note: fabench is installed as a package, so ${flag} defaults to ${join(project, folder)} in the working directory; its bundled ${folder} is never rewritten\n`,
      );
      for (const file of writes) {
        expect(run.out).toContain(`wrote ${join(project, file)}`);
        expect(bytes(join(project, file)).equals(bytes(join(REPO, file))), file).toBe(true);
      }
    });

  it("conveyor record, which rewrites its conveyor in place, needs --conveyor when installed", async () => {
    place(root, true, project);
    writeFileSync(join(project, "evidence.txt"), "evidence\n");
    const run = await runCli([
      "conveyor",
      "record",
      "#432",
      "--state",
      "succeeded",
      "--artifact",
      join(project, "evidence.txt"),
      "--source-revision",
      "a".repeat(40),
    ]);
    expect(run.code).toBe(2);
    expect(run.err).toBe(
      "output_in_package: conveyor record rewrites --conveyor in place, and an installed fabench never rewrites its bundled manifests/conveyor.json; give --conveyor FILE (a pilot's, or your copy of the bundled one)\n",
    );
    expect(fileHashes(root)).toEqual(before);
  });

  it("refuses an output the user names inside the installed package", async () => {
    place(root, true, project);
    for (const argv of [
      ["plan", "generate", "--out", join(root, "manifests/authoring-plan.json")],
      ["plan", "generate", "--out", join(root, "elsewhere.json")],
      ["catalog", "build", "--catalogs", join(root, "tasks/catalogs")],
    ]) {
      const run = await runCli(argv);
      expect([argv.join(" "), run.code]).toEqual([argv.join(" "), 2]);
      expect(run.err).toMatch(
        /^output_in_package: --(out|catalogs) .* lies inside the installed fabench package/,
      );
    }
    expect(fileHashes(root)).toEqual(before);
  });

  it("a failed check of the installed copy advises a command that writes beside the user", async () => {
    // A damaged install: the package's own 100-endpoint catalog no longer matches a fresh build.
    const damaged = join(temp(), "damaged");
    const { root: broken, project: user } = layout(damaged);
    writeFileSync(join(broken, "tasks/catalogs/100.json"), "{}\n");
    const damagedHashes = fileHashes(broken);
    place(broken, true, user);
    const check = await runCli(["catalog", "build", "--check"]);
    expect(check.code).toBe(1);
    expect(check.err).toBe(
      `${join(broken, "tasks/catalogs/100.json")}: catalog_stale: differs from a fresh build; it is the installed fabench's own copy, which fabench never rewrites: reinstall fabench, or run \`fabench catalog build --catalogs tasks/catalogs\` to write a fresh one in the working directory\n`,
    );
    // Following the advice writes beside the user and leaves the package as it was.
    const follow = await runCli(["catalog", "build", "--catalogs", "tasks/catalogs"]);
    expect([follow.code, follow.err]).toEqual([0, ""]);
    expect(fileHashes(broken)).toEqual(damagedHashes);
    expect(
      bytes(join(user, "tasks/catalogs/100.json")).equals(bytes(join(REPO, "tasks/catalogs/100.json"))),
    ).toBe(true);
  });
});

describe("a same-named file in the working directory that a bundled default passes over", () => {
  const temp = useTempDir();

  it("is named in one warning line; given by name, it is read", async () => {
    const { root, project } = layout(temp());
    place(root, true, project);
    const quiet = await runCli(["plan", "generate", "--check"]);
    expect([quiet.code, quiet.err]).toEqual([0, ""]);

    mkdirSync(join(project, "manifests"));
    writeFileSync(join(project, "manifests/preregistration.json"), "{ not the bundled protocol\n");
    const warned = await runCli(["plan", "generate", "--check"]);
    expect(warned.code).toBe(0);
    expect(warned.err).toBe(
      "warning: ./manifests/preregistration.json in the working directory is not read: the default is fabench's bundled manifests/preregistration.json; give --protocol manifests/preregistration.json to read yours\n",
    );
    // The user's file wins when named: here it is not JSON, so the command stops on it.
    const named = await runCli([
      "plan",
      "generate",
      "--check",
      "--protocol",
      "manifests/preregistration.json",
    ]);
    expect(named.code).toBe(2);
    expect(named.err).toMatch(/^manifests\/preregistration\.json:1:/);
    expect(named.err).not.toContain("warning:");
  });

  it("is named for folders and positional arguments too, and in a development checkout run from elsewhere", async () => {
    const { root, project } = layout(temp());
    place(root, false, project);
    // A folder: catalog build --check reads the bundled catalogs.
    mkdirSync(join(project, "tasks/catalogs"), { recursive: true });
    const catalogs = await runCli(["catalog", "build", "--check"]);
    expect(catalogs.code).toBe(0);
    expect(catalogs.err).toBe(
      "warning: ./tasks/catalogs in the working directory is not read: the default is fabench's bundled tasks/catalogs; give --catalogs tasks/catalogs to read yours\n",
    );
    // A positional argument left at its default.
    writeFileSync(join(project, "tasks/final-answer-corpus.json"), "[]\n");
    const check = await runCli(["corpus", "check", "--catalogs", join(root, "tasks/catalogs")]);
    expect(check.code).toBe(0);
    expect(check.err).toBe(
      "warning: ./tasks/final-answer-corpus.json in the working directory is not read: the default is fabench's bundled tasks/final-answer-corpus.json; give the argument tasks/final-answer-corpus.json to read yours\n",
    );
    // In the checkout itself the working directory's file is the bundled one: no warning.
    chdir(root);
    const home = await runCli(["catalog", "build", "--check"]);
    expect([home.code, home.err]).toEqual([0, ""]);
  });
});

describe("what a command writes by default is what the next reads by default (#35)", () => {
  const temp = useTempDir();

  it("an installed fabench reads the manifest, plan, corpus and catalogs a command wrote beside the user", async () => {
    const { root, project } = layout(temp());
    place(root, true, project);
    const show = ["conditions", "show", "--task", "v4-multi_source_comparison-de-02"];
    const bundled = await runCli(show);
    expect([bundled.code, bundled.err]).toEqual([0, ""]);
    // `conditions freeze` without --out writes ./manifests/condition-manifest.json here (see above);
    // a copy stands in for it, so the next command's output is the same, read from here.
    mkdirSync(join(project, "manifests"));
    cpSync(
      join(root, "manifests/condition-manifest.json"),
      join(project, "manifests/condition-manifest.json"),
    );
    const note =
      "note: reading ./manifests/condition-manifest.json in the working directory, where an installed fabench writes it by default, not its bundled manifests/condition-manifest.json\n";
    const copied = await runCli(show);
    expect([copied.code, copied.out, copied.err]).toEqual([0, bundled.out, note]);
    // It is read: a broken one stops the command on its own path.
    writeFileSync(join(project, "manifests/condition-manifest.json"), "{ broken\n");
    const broken = await runCli(show);
    expect(broken.code).toBe(2);
    expect(broken.err.startsWith(note)).toBe(true);
    expect(broken.err).toContain(join(project, "manifests/condition-manifest.json"));
    // A path the user gives wins, with no note.
    const named = await runCli([...show, "--manifest", join(root, "manifests/condition-manifest.json")]);
    expect([named.code, named.err]).toEqual([0, ""]);
  });

  it("the protocol, which no command writes by default, stays the bundled one (with the warning)", async () => {
    const { root, project } = layout(temp());
    place(root, true, project);
    mkdirSync(join(project, "manifests"));
    writeFileSync(join(project, "manifests/preregistration.json"), "{ not the bundled protocol\n");
    const check = await runCli(["plan", "generate", "--check"]);
    expect(check.code).toBe(0);
    expect(check.err).toMatch(
      /^warning: \.\/manifests\/preregistration\.json in the working directory is not read/,
    );
  });
});

describe("fabench's own development checkout regenerates the bundled files in place", () => {
  const temp = useTempDir();

  it("plan generate and catalog build without --out rewrite the checkout's copies", async () => {
    const { root, project } = layout(temp());
    writeFileSync(join(root, "manifests/authoring-plan.json"), "{}\n");
    writeFileSync(join(root, "tasks/catalogs/250.json"), "{}\n");
    place(root, false, project);
    const stale = await runCli(["plan", "generate", "--check"]);
    expect(stale.code).toBe(1);
    // The advice is the bare command: in a checkout, it rewrites the bundled file.
    expect(stale.err).toContain(
      "differs from a fresh build of the protocol; run `fabench plan generate` to rewrite it",
    );
    for (const argv of [
      ["plan", "generate"],
      ["catalog", "build"],
    ]) {
      const run = await runCli(argv);
      expect([argv.join(" "), run.code, run.err]).toEqual([argv.join(" "), 0, ""]);
    }
    for (const file of ["manifests/authoring-plan.json", "tasks/catalogs/250.json"])
      expect(bytes(join(root, file)).equals(bytes(join(REPO, file))), file).toBe(true);
    expect(readdirSync(project)).toEqual([]);
  });

  it("a check of a folder the user named advises rewriting that folder, not the bundled one", async () => {
    const { root, project } = layout(temp());
    place(root, false, project);
    cpSync(join(REPO, "tasks/catalogs"), join(project, "my catalogs"), { recursive: true });
    writeFileSync(join(project, "my catalogs/100.json"), "{}\n");
    const check = await runCli(["catalog", "build", "--check", "--catalogs", "my catalogs"]);
    expect(check.code).toBe(1);
    expect(check.err).toBe(
      "my catalogs/100.json: catalog_stale: differs from a fresh build; run `fabench catalog build --catalogs 'my catalogs'` to rewrite it\n",
    );
  });
});

describe("--help says which defaults are bundled", () => {
  const walk = (command: Command): Command[] => [command, ...command.commands.flatMap(walk)];
  const words = (text: string) => text.replace(/\s+/g, " ");
  const bundledOptions = (program: Command) =>
    walk(program).flatMap((command) =>
      command.options
        .filter(
          (o: Option) => !o.hidden && typeof o.defaultValue === "string" && isBundledName(o.defaultValue),
        )
        .map((option) => ({ command, option, name: option.defaultValue as string })),
    );

  it("in a checkout, every default that names a bundled file shows as `(default: bundled NAME)`", () => {
    const program = buildProgram({ out: () => undefined, err: () => undefined }, () => undefined);
    const found = bundledOptions(program);
    // protocol, plan, corpus, catalogs, manifest, conveyor, authored and each regenerating --out.
    expect(found.length).toBeGreaterThan(30);
    for (const { command, option, name } of found)
      expect(words(command.helpInformation()), `${command.name()} ${option.long}`).toContain(
        `${option.flags} ${option.description} (default: bundled ${name})`,
      );
  });

  it("installed, a regenerating command's output default shows where it writes", async () => {
    place(REPO, true, REPO);
    const plan = await runCli(["plan", "generate", "--help"]);
    expect(words(plan.out)).toContain(
      "--out <file> plan file to write or check; with --pilot, the pilot's (default: ./manifests/authoring-plan.json in the working directory; with --check, bundled manifests/authoring-plan.json)",
    );
    expect(words(plan.out)).toContain(
      "--protocol <path> preregistered protocol (default: bundled manifests/preregistration.json)",
    );
    const catalog = await runCli(["catalog", "build", "--help"]);
    expect(words(catalog.out)).toContain(
      "(default: ./tasks/catalogs in the working directory; with --check, bundled tasks/catalogs)",
    );
    const check = await runCli(["corpus", "check", "--help"]);
    expect(words(check.out)).toContain("(default: bundled tasks/final-answer-corpus.json)");
  });
});

describe("installed or a checkout", () => {
  const temp = useTempDir();

  it("is a checkout only where a .git sits and no node_modules folder contains it", () => {
    const dir = temp();
    const checkout = join(dir, "fabench");
    mkdirSync(checkout);
    expect(isInstalledRoot(checkout)).toBe(true);
    writeFileSync(join(checkout, ".git"), "gitdir: elsewhere\n"); // a worktree's .git is a file
    expect(isInstalledRoot(checkout)).toBe(false);
    const dependency = join(dir, "node_modules", "fabench");
    mkdirSync(join(dependency, ".git"), { recursive: true });
    expect(isInstalledRoot(dependency)).toBe(true);
    expect(isInstalledRoot(REPO)).toBe(false);
  });
});
