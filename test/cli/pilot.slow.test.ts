import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { join, useSuiteTempDir } from "../helpers/temp.ts";

const FROZEN = [
  "manifests/preregistration.json",
  "manifests/authoring-plan.json",
  "manifests/condition-manifest.json",
  "manifests/conveyor.json",
  "tasks/final-answer-corpus.json",
];
const TASKS = ["--task", "v4-single_property_value_unit_provenance-en-0*"];

describe("a pilot: labelled, in its own folder, never the claim", () => {
  const temp = useSuiteTempDir();
  const before = new Map<string, Buffer>();
  let pilot = "";
  let summary = "";

  beforeAll(async () => {
    for (const f of FROZEN) before.set(f, readFileSync(f));
    pilot = join(temp(), "pilot");
    const init = await runCli(["pilot", "init", pilot]);
    expect(init.code).toBe(0);
    const run = join(temp(), "pilot.jsonl");
    summary = join(temp(), "pilot.summary.json");
    expect(
      (await runCli(["run", "--pilot", pilot, "--agent", "reference", ...TASKS, "--out", run])).code,
    ).toBe(0);
    const scored = await runCli(["score", "--pilot", pilot, run, "--out", summary, "--allow-incomplete"]);
    expect(scored.code).toBe(0);
  }, 120_000);

  it("writes a pilot protocol without the prerequisite gate, and touches no frozen file", () => {
    const protocol = JSON.parse(readFileSync(join(pilot, "preregistration.json"), "utf8"));
    expect(protocol.protocol_id).toBe("fabench-424-final-answer-v4-pilot");
    expect(protocol.title).toMatch(/^PILOT \(not preregistered/);
    expect(protocol.prerequisites.gate_stage).toBeNull();
    const marker = JSON.parse(readFileSync(join(pilot, "pilot.json"), "utf8"));
    expect(marker.format).toBe("fabench-pilot/v1");
    expect(Object.keys(marker.files).sort()).toEqual([
      "authoring-plan.json",
      "condition-manifest.json",
      "conveyor.json",
      "final-answer-corpus.json",
      "preregistration.json",
    ]);
    for (const f of FROZEN) expect(readFileSync(f)).toEqual(before.get(f));
  });

  it("labels every verdict under it not preregistered: summary, gate text and JSON, Markdown and HTML", async () => {
    const s = JSON.parse(readFileSync(summary, "utf8"));
    expect([s.preregistered, s.gate.preregistered]).toEqual([false, false]);
    const gate = await runCli(["gate", "--pilot", pilot, summary]);
    expect(gate.out.split("\n")[0]).toMatch(/^verdict: FAIL .* — NOT PREREGISTERED: /);
    const json = await runCli(["gate", "--pilot", pilot, summary, "--json"]);
    expect(JSON.parse(json.out).preregistered).toBe(false);
    const md = join(temp(), "r.md");
    const html = join(temp(), "r.html");
    expect((await runCli(["report", "--pilot", pilot, summary, "--format", "md", "--out", md])).code).toBe(0);
    expect(readFileSync(md, "utf8").split("\n")[0]).toBe("## fabench: **FAIL** — not preregistered");
    expect((await runCli(["report", "--pilot", pilot, summary, "--out", html])).code).toBe(0);
    expect(readFileSync(html, "utf8")).toContain(
      '<p id="not-preregistered" class="pilot-note">NOT PREREGISTERED',
    );
  });

  it("names the way out when a pilot's summary meets the bundled protocol, and refuses mixed or bad --pilot", async () => {
    const runs = await runCli([
      "score",
      join(temp(), "pilot.jsonl"),
      "--out",
      join(temp(), "x.json"),
      "--allow-incomplete",
    ]);
    expect(runs.code).toBe(2);
    expect(runs.err).toMatch(
      /run_input_mismatch: .*\(these are pilot runs of fabench-424-final-answer-v4-pilot: pass their folder with --pilot DIR\)\n$/,
    );
    // The summary names its pilot's protocol (#35): gate and report need no --pilot.
    expect(JSON.parse(readFileSync(summary, "utf8")).protocol_file).toBe("pilot/preregistration.json");
    const named = await runCli(["gate", summary]);
    expect(named.code).toBe(1);
    expect(named.out.split("\n")[0]).toMatch(/^verdict: FAIL .* — NOT PREREGISTERED: /);
    const report = await runCli(["report", summary, "--out", join(temp(), "named.html")]);
    expect([report.code, report.err]).toEqual([0, ""]);
    // Moved away from its pilot, the summary meets the bundled protocol and names the way out.
    const moved = join(temp(), "moved", "pilot.summary.json");
    mkdirSync(dirname(moved));
    copyFileSync(summary, moved);
    const bundled = await runCli(["gate", moved]);
    expect(bundled.code).toBe(2);
    expect(bundled.err).toContain("or the pilot's folder with --pilot DIR");
    // A protocol the user gives wins over the pilot's (#35), and is refused here as not the summary's.
    const given = await runCli([
      "gate",
      "--pilot",
      pilot,
      "--protocol",
      "manifests/preregistration.json",
      summary,
    ]);
    expect(given.code).toBe(2);
    expect(given.err).toContain("protocol_mismatch");
    const missing = join(temp(), "nope");
    const bad = await runCli(["gate", "--pilot", missing, summary]);
    expect(bad.code).toBe(2);
    expect(bad.err).toBe(
      `not_a_pilot: --pilot ${missing} is not a pilot folder (no pilot.json); make one with \`fabench pilot init ${missing}\`\n`,
    );
    const again = await runCli(["pilot", "init", pilot]);
    expect([again.code, again.err]).toEqual([
      2,
      `pilot_exists: ${pilot} exists; choose a new folder for the pilot\n`,
    ]);
  });

  it("is refused inside a bundled folder", async () => {
    const result = await runCli(["pilot", "init", "tasks/catalogs/pilot"]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/^output_is_frozen: /);
  });
});
