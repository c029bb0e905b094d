import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { join, useTempDir } from "../helpers/temp.ts";

describe("fabench plan generate", () => {
  const temp = useTempDir();

  it("passes --check on the checked-in plan", async () => {
    const run = await runCli(["plan", "generate", "--check"]);
    expect(run.code).toBe(0);
    expect(run.out).toContain("4160525b5a3eba37288534f66f6ccf42d226c1cef9a2d21f66128129b97cfcc0");
  });

  it("writes a plan identical to the checked-in one", async () => {
    const out = join(temp(), "plan.json");
    const run = await runCli(["plan", "generate", "--out", out, "--json"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out)).toMatchObject({ ok: true, written: true, slot_count: 144 });
    expect(readFileSync(out, "utf8")).toBe(readFileSync("manifests/authoring-plan.json", "utf8"));
  });

  it("fails --check with exit 1 when the plan differs, and leaves it untouched", async () => {
    const out = join(temp(), "plan.json");
    await runCli(["plan", "generate", "--out", out]);
    const stale = readFileSync(out, "utf8").replace('"ordinal_in_cell": 4', '"ordinal_in_cell": 5');
    writeFileSync(out, stale);
    const run = await runCli(["plan", "generate", "--out", out, "--check"]);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(new RegExp(`^${out}: plan_stale: `));
    expect(readFileSync(out, "utf8")).toBe(stale);
  });

  it("fails --check when there is no plan file, without creating one", async () => {
    const out = join(temp(), "missing.json");
    const run = await runCli(["plan", "generate", "--out", out, "--check", "--json"]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.out)).toMatchObject({ ok: false, up_to_date: false });
    expect(existsSync(out)).toBe(false);
  });

  it("refuses a protocol whose counts do not add up, with exit 2 and nothing written", async () => {
    const protocol = JSON.parse(readFileSync("manifests/preregistration.json", "utf8")) as Record<
      string,
      unknown
    >;
    protocol["tasks_per_cell"] = 5;
    const path = join(temp(), "protocol.json");
    writeFileSync(path, JSON.stringify(protocol));
    const out = join(temp(), "plan.json");
    const run = await runCli(["plan", "generate", "--protocol", path, "--out", out]);
    expect(run.code).toBe(2);
    expect(run.err).toBe(
      `${path}: protocol_counts_mismatch: 36 cells × 5 tasks = 180, but expected_task_count is 144\n`,
    );
    expect(existsSync(out)).toBe(false);
  });

  it("builds the plan of another protocol", async () => {
    const protocol = JSON.parse(readFileSync("manifests/preregistration.json", "utf8")) as Record<
      string,
      unknown
    >;
    Object.assign(protocol, {
      answer_task_strata: ["a", "b", "c"],
      corrective_strata: ["c"],
      tasks_per_cell: 2,
      expected_cell_count: 18,
      expected_task_count: 36,
    });
    const path = join(temp(), "protocol.json");
    writeFileSync(path, JSON.stringify(protocol));
    const out = join(temp(), "plan.json");
    const run = await runCli(["plan", "generate", "--protocol", path, "--out", out, "--json"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(readFileSync(out, "utf8")).slots).toHaveLength(36);
  });
});

describe("command-line conventions", () => {
  it.each([
    [["--help"]],
    [["plan", "--help"]],
    [["plan", "generate", "--help"]],
    [["corpus", "validate", "--help"]],
  ])("prints help for %j and exits 0", async (argv) => {
    const run = await runCli(argv);
    expect(run.code).toBe(0);
    expect(run.out).toContain("Usage: fabench");
  });

  it("exits 2 on an unknown option or a missing argument, with one usage line", async () => {
    const unknown = await runCli(["plan", "generate", "--frobnicate"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("fabench: usage_error: unknown option '--frobnicate'");
    // (`corpus validate` without a corpus reads the default one, as every corpus command does.)
    const missing = await runCli(["compare", "results/a.summary.json"]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("usage_error: missing required argument 'b'");
  });

  it("exits 2 on an unknown command and on a group without its subcommand", async () => {
    expect((await runCli(["nonsense"])).code).toBe(2);
    expect((await runCli(["corpus"])).code).toBe(2);
  });
});
