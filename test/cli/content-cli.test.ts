import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { CORPUS_PATH } from "../helpers/bundled.ts";
import { join, useTempDir } from "../helpers/temp.ts";

describe("fabench catalog build", () => {
  const temp = useTempDir();

  it("passes --check on the checked-in catalogs", async () => {
    const run = await runCli(["catalog", "build", "--check", "--json"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out).catalogs.map((c: { size: number }) => c.size)).toEqual([100, 250]);
  });

  it("writes requested sizes and fails --check on a stale one", async () => {
    const dir = join(temp(), "catalogs");
    expect((await runCli(["catalog", "build", "--catalog-size", "60,80", "--catalogs", dir])).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "60.json"), "utf8")).endpoint_count).toBe(60);
    writeFileSync(join(dir, "80.json"), "{}\n");
    const check = await runCli([
      "catalog",
      "build",
      "--catalog-size",
      "60,80",
      "--catalogs",
      dir,
      "--check",
    ]);
    expect(check.code).toBe(1);
    expect(check.err).toContain(`${join(dir, "80.json")}: catalog_stale:`);
  });

  it("refuses sizes that are not whole numbers or smaller than the base catalog", async () => {
    expect((await runCli(["catalog", "build", "--catalog-size", "ten", "--catalogs", temp()])).code).toBe(2);
    expect((await runCli(["catalog", "build", "--catalog-size", "5", "--catalogs", temp()])).code).toBe(2);
  });
});

describe("fabench corpus check", () => {
  const temp = useTempDir();

  it("passes the bundled corpus and prints the contract's keys with --json", async () => {
    const run = await runCli(["corpus", "check", CORPUS_PATH, "--json"]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.out) as Record<string, unknown>;
    expect(Object.keys(report)).toEqual([
      "ok",
      "task_count",
      "tasks_sha256",
      "field_name_share",
      "errors",
      "warnings",
    ]);
    expect(report).toMatchObject({ ok: true, task_count: 144, errors: [] });
    // How many required facts sit in a field named as their form key (#26): 1 of 359 (corrective-en-01's
    // error code, read from a log line's `error_code`); 1 / 359 = 0.00279.
    expect(report["field_name_share"]).toEqual({ required_facts: 359, named_as_form_key: 1, share: 0.0028 });
  });

  it("prints the field-name share after the verdict", async () => {
    const run = await runCli(["corpus", "check", CORPUS_PATH]);
    expect(run.code).toBe(0);
    expect(run.out).toContain(
      "field names: 1 of 359 required facts sit in a record field named as their form key (share 0.0028)",
    );
  });

  it("prints at most 50 problems of one bad corpus, then counts the rest by code (#25 item 4)", async () => {
    // Half the tasks gone (the plan's slots they filled are missing) and the rest with empty
    // queries: problems named under the plan and under the corpus, all of them the corpus's.
    const corpus = JSON.parse(readFileSync(CORPUS_PATH, "utf8")) as { tasks: Array<{ query: string }> };
    corpus.tasks = corpus.tasks.slice(0, 70).map((t) => ({ ...t, query: "" }));
    const path = join(temp(), "half.json");
    writeFileSync(path, JSON.stringify(corpus));
    const run = await runCli(["corpus", "check", path]);
    expect(run.code).toBe(1);
    const lines = run.err.trimEnd().split("\n");
    expect(lines).toHaveLength(52);
    // 144 − 70 slots missing; 70 empty queries, 50 of them listed first.
    expect(lines[50]).toBe(
      "… and 166 more: missing_slot ×74, template_reuse ×69, empty_query ×20, row_count_mismatch ×1, task_count_mismatch ×1, tasks_hash_mismatch ×1",
    );
    expect(lines[51]).toBe(`${path}: 216 problem(s) in 70 tasks`);
  });

  it("exits 1 and names file, line and code for a content problem", async () => {
    const corpus = JSON.parse(readFileSync(CORPUS_PATH, "utf8")) as {
      tasks: Array<{
        required_facts: Array<{
          key: string;
          value: unknown;
          source_id: string;
          evidence: { pointer: string };
        }>;
      }>;
    };
    corpus.tasks[0]!.required_facts[0]!.value = 1;
    const broken = corpus.tasks[1]!.required_facts[0]!;
    broken.evidence.pointer = "/measurements/9/value";
    const tasks = join(temp(), "tasks.json");
    const text = JSON.stringify(corpus.tasks, null, 2);
    writeFileSync(tasks, text);
    const run = await runCli(["corpus", "check", tasks]);
    expect(run.code).toBe(1);
    // The second task starts where its id is written, one line above it.
    const second = text
      .split("\n")
      .findIndex((l) => l.includes('"v4-single_property_value_unit_provenance-en-02"'));
    const [first, next] = run.err.split("\n");
    // The record holds 203.6 degC, which the checker converts to the form's °F (203.6 × 9/5 + 32 = 398.48).
    const prefix = `${tasks}:2: pointer_value_mismatch: v4-single_property_value_unit_provenance-en-01: required_facts[0] (heat_deflection_temperature): MATDB-PS-1104-R7/properties/2/value holds 203.6 degC = `;
    const suffix = " degF, not the gold 1 degF (index 0)";
    expect(first?.startsWith(prefix) && first.endsWith(suffix), first).toBe(true);
    expect(Number(first!.slice(prefix.length, -suffix.length))).toBeCloseTo(398.48, 9);
    expect(next).toBe(
      `${tasks}:${second}: pointer_unresolved: v4-single_property_value_unit_provenance-en-02: required_facts[0] (${broken.key}): pointer /measurements/9/value does not resolve in ${broken.source_id}'s payload (index 1)`,
    );
  });

  it("reports an allowed record that holds a value unlisted as a warning, after the verdict, and passes (#32)", async () => {
    // A copy of en-01's record under another id, shown by the same required response and allowed:
    // it holds every value the original does, and no fact lists it.
    const corpus = JSON.parse(readFileSync(CORPUS_PATH, "utf8")) as { tasks: Array<Record<string, any>> };
    const task = corpus.tasks[0]!;
    const source = task["executor_fixture"].responses[0].observation.sources[0];
    const copy = { source_id: `${source.source_id}-COPY`, payload: source.payload };
    task["executor_fixture"].responses[0].observation.sources.push(copy);
    task["evidence_payloads"].push(copy);
    task["allowed_source_ids"].push(copy.source_id);
    const tasks = join(temp(), "tasks.json");
    writeFileSync(tasks, JSON.stringify(corpus.tasks, null, 2));
    const human = await runCli(["corpus", "check", tasks]);
    expect(human.code).toBe(0);
    const lines = human.out.split("\n");
    const verdict = lines.findIndex((l) => l.startsWith(`${tasks}: ok`));
    const copied = lines.findIndex((l) =>
      l.startsWith(
        `warning: ${tasks}:2: unlisted_source_holds_value: v4-single_property_value_unit_provenance-en-01: required_facts[0] (heat_deflection_temperature): allowed source ${copy.source_id} holds`,
      ),
    );
    expect(verdict).toBeGreaterThanOrEqual(0);
    expect(copied).toBeGreaterThan(verdict);
    expect(human.out).toMatch(/warning\(s\), reported and not failed\n$/);
    const json = JSON.parse((await runCli(["corpus", "check", tasks, "--json"])).out) as {
      ok: boolean;
      warnings: Array<{ code: string; semantic_task_id: string; message: string }>;
    };
    expect(json.ok).toBe(true);
    expect(json.warnings.filter((w) => w.message.includes(copy.source_id))[0]).toMatchObject({
      code: "unlisted_source_holds_value",
      semantic_task_id: "v4-single_property_value_unit_provenance-en-01",
    });
  });

  it("reports prior-query overlap with --forbidden-corpus", async () => {
    const run = await runCli(["corpus", "check", CORPUS_PATH, "--forbidden-corpus", CORPUS_PATH, "--json"]);
    expect(run.code).toBe(1);
    const codes = new Set((JSON.parse(run.out).errors as Array<{ code: string }>).map((e) => e.code));
    expect(codes).toEqual(new Set(["prior_query_overlap"]));
  });

  it("refuses a plan built from another protocol, with exit 2", async () => {
    const plan = JSON.parse(readFileSync("manifests/authoring-plan.json", "utf8")) as Record<string, unknown>;
    plan["protocol_sha256"] = "0".repeat(64);
    const path = join(temp(), "plan.json");
    writeFileSync(path, JSON.stringify(plan));
    const run = await runCli(["corpus", "check", CORPUS_PATH, "--plan", path]);
    expect(run.code).toBe(2);
    expect(run.err).toContain("plan_protocol_mismatch");
  });
});

describe("fabench corpus generate", () => {
  const temp = useTempDir();

  it("passes --check on the checked-in corpus", async () => {
    const run = await runCli(["corpus", "generate", "--check"]);
    expect(run.code).toBe(0);
    expect(run.out).toContain("up to date: 144 tasks");
  });

  it("writes the same bytes for the same source revision, and --check catches an edit", async () => {
    const out = join(temp(), "corpus.json");
    const revision = (JSON.parse(readFileSync(CORPUS_PATH, "utf8")) as { generator_source_revision: string })
      .generator_source_revision;
    expect((await runCli(["corpus", "generate", "--out", out, "--source-revision", revision])).code).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(readFileSync(CORPUS_PATH, "utf8"));
    const text = readFileSync(out, "utf8");
    const firstQuery = (JSON.parse(text) as { tasks: Array<{ query: string }> }).tasks[0]!.query;
    writeFileSync(out, text.replace(JSON.stringify(firstQuery), JSON.stringify(`${firstQuery} (edited)`)));
    const check = await runCli(["corpus", "generate", "--out", out, "--check"]);
    expect(check.code).toBe(1);
    expect(check.err).toContain("corpus_stale");
  });

  it("writes nothing when the generated corpus would overlap an earlier surface", async () => {
    const out = join(temp(), "corpus.json");
    const prior = join(temp(), "prior.json");
    cpSync(CORPUS_PATH, prior);
    const run = await runCli([
      "corpus",
      "generate",
      "--out",
      out,
      "--source-revision",
      "f".repeat(40),
      "--forbidden-corpus",
      prior,
    ]);
    expect(run.code).toBe(1);
    expect(run.err).toContain("prior_query_overlap");
    expect(run.err).toContain("nothing written");
    expect(existsSync(out)).toBe(false);
  });

  it("names every stratum whose authored file is missing, and writes nothing", async () => {
    const authored = join(temp(), "authored");
    cpSync("tasks/authored", authored, { recursive: true });
    rmSync(join(authored, "multi_source_comparison.json"));
    rmSync(join(authored, "corrective_expansion_required.json"));
    const out = join(temp(), "c.json");
    const run = await generateFrom(authored, out);
    expect(run.code).toBe(2);
    expect(run.err.trim().split("\n")).toEqual([
      `${join(authored, "multi_source_comparison.json")}: authored_file_missing: no authored task file for this stratum`,
      `${join(authored, "corrective_expansion_required.json")}: authored_file_missing: no authored task file for this stratum`,
    ]);
    expect(existsSync(out)).toBe(false);
  });

  it("catches a copied template among the authored tasks (template_reuse), and writes nothing", async () => {
    const authored = join(temp(), "authored");
    cpSync("tasks/authored", authored, { recursive: true });
    const file = join(authored, "single_property_value_unit_provenance.json");
    const doc = JSON.parse(readFileSync(file, "utf8")) as { tasks: Array<{ query: string }> };
    // en-02 becomes en-01's sentence with other identifiers: the copy the rule exists for.
    doc.tasks[1]!.query = doc.tasks[0]!.query.replace("MAT-1043-TI", "MAT-9999-XX");
    writeFileSync(file, JSON.stringify(doc));
    const out = join(temp(), "c.json");
    const run = await generateFrom(authored, out);
    expect(run.code).toBe(1);
    expect(run.err).toContain(
      "v4-single_property_value_unit_provenance-en-02: the query is the query of v4-single_property_value_unit_provenance-en-01",
    );
    expect(run.err).toContain("template_reuse");
    expect(existsSync(out)).toBe(false);
  });

  it("refuses a malformed --source-revision", async () => {
    expect(
      (await runCli(["corpus", "generate", "--out", join(temp(), "c.json"), "--source-revision", "HEAD"]))
        .code,
    ).toBe(2);
  });
});

/** `corpus generate` from a copy of the authored files, with a fixed source revision. */
function generateFrom(authored: string, out: string) {
  return runCli([
    "corpus",
    "generate",
    "--authored",
    authored,
    "--out",
    out,
    "--source-revision",
    "f".repeat(40),
  ]);
}
