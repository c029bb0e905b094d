/**
 * examples/github-actions.yml is copied into other people's repositories, so it is held to what
 * docs/running.md promises: a 4-shard matrix, `runs merge`, `score`, `report`, and `gate` as the final
 * job's check. Every `fabench` command in it is checked against the CLI's own help (subcommands,
 * options, and whether an option takes a value), never against a list kept here.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runCli } from "../helpers/cli.ts";
import { shellCommands } from "../helpers/shell-words.ts";

const EXAMPLE = "examples/github-actions.yml";
const SHARDS = 4;
const MATRIX_SHARD = "${{ matrix.shard }}";

interface Step {
  readonly name?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly if?: string;
  readonly with?: Readonly<Record<string, unknown>>;
  readonly env?: Readonly<Record<string, unknown>>;
}

interface Job {
  readonly needs?: string | readonly string[];
  readonly if?: string;
  readonly strategy?: {
    readonly "fail-fast"?: boolean;
    readonly matrix?: Readonly<Record<string, unknown>>;
  };
  readonly steps: readonly Step[];
}

interface Workflow {
  readonly jobs: Readonly<Record<string, Job>>;
}

// ---------------------------------------------------------------------------------------------
// Command lines out of `run:` scripts.

/** The arguments after `fabench` (`npx fabench …`, `node_modules/.bin/fabench …`) of each command that runs it. */
function fabenchArgs(script: string): string[][] {
  return shellCommands(script).flatMap((words) => {
    const at = words.findIndex((w) => w === "fabench" || w.endsWith("/fabench"));
    if (at < 0) return [];
    const args = words.slice(at + 1);
    return [args[0] === "--" ? args.slice(1) : args];
  });
}

// ---------------------------------------------------------------------------------------------
// The CLI's own commands and options, read from its help.

type Arity = "none" | "required" | "optional";

interface CommandSpec {
  readonly subcommands: readonly string[];
  /** `--long` and `-s` flags, with whether each takes a value. */
  readonly options: ReadonlyMap<string, Arity>;
}

function parseHelp(help: string): CommandSpec {
  const sections = new Map<string, string[]>();
  let current: string[] | null = null;
  for (const line of help.split("\n")) {
    const header = /^(Arguments|Options|Commands):$/.exec(line);
    if (header) sections.set(header[1] as string, (current = []));
    else if (line === "") current = null;
    else if (current && /^ {2}\S/.test(line)) current.push(line.trim());
  }
  const options = new Map<string, Arity>();
  for (const entry of sections.get("Options") ?? []) {
    const m = /^(?:(-\w), )?(--[\w-]+)(?: ([<[]))?/.exec(entry);
    if (!m) continue;
    const arity: Arity = m[3] === "<" ? "required" : m[3] === "[" ? "optional" : "none";
    options.set(m[2] as string, arity);
    if (m[1]) options.set(m[1], arity);
  }
  const subcommands = (sections.get("Commands") ?? [])
    .map((entry) => entry.split(" ")[0] as string)
    .filter((name) => name !== "help");
  return { subcommands, options };
}

const specs = new Map<string, Promise<CommandSpec>>();

function specOf(path: readonly string[]): Promise<CommandSpec> {
  const key = path.join(" ");
  let spec = specs.get(key);
  if (!spec) {
    spec = runCli([...path, "--help"]).then(({ code, out, err }) => {
      if (code !== 0) throw new Error(`fabench ${key} --help exited ${code}: ${err}`);
      return parseHelp(out);
    });
    specs.set(key, spec);
  }
  return spec;
}

interface Invocation {
  /** The subcommand, e.g. ["runs", "merge"]. */
  readonly path: readonly string[];
  readonly options: ReadonlyMap<string, readonly string[]>;
  readonly positionals: readonly string[];
  /** Unknown subcommands and options, missing values; empty when the CLI would accept the words. */
  readonly problems: readonly string[];
}

/** Checks one command's words (after `fabench`) against the CLI's own help. */
async function checkInvocation(args: readonly string[]): Promise<Invocation> {
  const path: string[] = [];
  const options = new Map<string, string[]>();
  const positionals: string[] = [];
  const problems: string[] = [];
  const line = `fabench ${args.join(" ")}`;
  let spec = await specOf(path);
  let i = 0;
  while (spec.subcommands.length > 0) {
    const name = args[i];
    if (name === undefined || !spec.subcommands.includes(name)) {
      problems.push(
        `${line}: no command ${JSON.stringify(name ?? "")} under "fabench${path.map((p) => ` ${p}`).join("")}"`,
      );
      return { path, options, positionals, problems };
    }
    path.push(name);
    i++;
    spec = await specOf(path);
  }
  for (; i < args.length; i++) {
    const word = args[i] as string;
    if (!word.startsWith("-") || word === "-") {
      positionals.push(word);
      continue;
    }
    const eq = word.indexOf("=");
    const flag = eq < 0 ? word : word.slice(0, eq);
    const arity = spec.options.get(flag);
    if (arity === undefined) {
      problems.push(`${line}: unknown option ${flag} for "fabench ${path.join(" ")}"`);
      continue;
    }
    let value: string | undefined;
    if (eq >= 0) value = word.slice(eq + 1);
    else if (arity !== "none" && args[i + 1] !== undefined && !(args[i + 1] as string).startsWith("-"))
      value = args[++i];
    if (arity === "required" && value === undefined) problems.push(`${line}: ${flag} needs a value`);
    if (arity === "none" && value !== undefined) problems.push(`${line}: ${flag} takes no value`);
    options.set(flag, [...(options.get(flag) ?? []), ...(value === undefined ? [] : [value])]);
  }
  return { path, options, positionals, problems };
}

// ---------------------------------------------------------------------------------------------
// The example.

interface Located extends Invocation {
  readonly job: string;
  readonly step: Step;
}

async function invocationsIn(workflow: Workflow): Promise<Located[]> {
  const found: Located[] = [];
  for (const [job, { steps }] of Object.entries(workflow.jobs))
    for (const step of steps)
      for (const args of fabenchArgs(step.run ?? ""))
        found.push({ job, step, ...(await checkInvocation(args)) });
  return found;
}

const needsOf = (job: Job): readonly string[] =>
  job.needs === undefined ? [] : typeof job.needs === "string" ? [job.needs] : job.needs;
const one = (inv: Located, flag: string): string => {
  const values = inv.options.get(flag) ?? [];
  expect(values, `${flag} in fabench ${inv.path.join(" ")}`).toHaveLength(1);
  return values[0] as string;
};
const listOf = (value: unknown): string[] =>
  String(value ?? "")
    .split("\n")
    .map((s) => s.trim())
    .filter((s) => s !== "");

describe("examples/github-actions.yml", () => {
  const text = readFileSync(EXAMPLE, "utf8");
  const workflow = parse(text) as Workflow;
  let cached: Promise<Located[]> | undefined;
  const invocations = () => (cached ??= invocationsIn(workflow));
  const find = async (...path: string[]) =>
    (await invocations()).filter((inv) => inv.path.join(" ") === path.join(" "));
  const only = async (...path: string[]) => {
    const found = await find(...path);
    expect(found, `fabench ${path.join(" ")}`).toHaveLength(1);
    return found[0] as Located;
  };

  it("uses only subcommands and options the CLI has, with their values", async () => {
    const all = await invocations();
    expect(all.flatMap((inv) => inv.problems)).toEqual([]);
    const used = new Set(all.map((inv) => inv.path.join(" ")));
    for (const path of ["conditions freeze", "run", "runs merge", "score", "report", "gate"])
      expect(used, path).toContain(path);
  });

  it("runs the model as a 4-shard matrix that keeps going and resumes", async () => {
    const shardJobs = Object.entries(workflow.jobs).filter(([, job]) => job.strategy?.matrix?.["shard"]);
    expect(shardJobs).toHaveLength(1);
    const [shardJob, job] = shardJobs[0] as [string, Job];
    expect(job.strategy?.matrix?.["shard"]).toEqual([1, 2, 3, 4]);
    expect(job.strategy?.["fail-fast"]).toBe(false);
    const runs = await find("run");
    expect(runs.length).toBeGreaterThan(0);
    for (const run of runs) {
      expect(run.job).toBe(shardJob);
      expect(one(run, "--shard")).toBe(`${MATRIX_SHARD}/${SHARDS}`);
      expect(one(run, "--agent")).toMatch(/^anthropic:/);
      expect(run.options.has("--resume")).toBe(true);
    }
    // Whatever else names a shard names it the same way.
    for (const inv of await invocations())
      for (const shard of inv.options.get("--shard") ?? []) expect(shard).toBe(`${MATRIX_SHARD}/${SHARDS}`);
  });

  it("merges every shard's output, scores the merge and gates that summary as the final job's last step", async () => {
    const run = await only("run");
    const merge = await only("runs", "merge");
    const score = await only("score");
    const gate = await only("gate");
    const out = one(run, "--out");
    expect(out).toContain(MATRIX_SHARD);
    expect(merge.positionals).toEqual(
      Array.from({ length: SHARDS }, (_, i) => out.replaceAll(MATRIX_SHARD, String(i + 1))),
    );
    expect(score.positionals).toEqual([one(merge, "--out")]);
    const summary = one(score, "--out");
    expect(gate.positionals).toEqual([summary]);
    for (const report of await find("report")) expect(report.positionals).toEqual([summary]);

    const gateJob = workflow.jobs[gate.job] as Job;
    expect(needsOf(gateJob)).toContain(run.job);
    expect(gateJob.if ?? "", "runs (and fails) when a shard failed, instead of being skipped").toMatch(
      /!cancelled\(\)|always\(\)/,
    );
    for (const job of Object.values(workflow.jobs)) expect(needsOf(job)).not.toContain(gate.job);
    expect(gateJob.steps.at(-1)).toBe(gate.step);
    expect(fabenchArgs(gate.step.run ?? "")).toHaveLength(1);
  });

  it("uploads the summary and the report before the gate can fail the job", async () => {
    const gate = await only("gate");
    const steps = (workflow.jobs[gate.job] as Job).steps;
    const uploads = steps.filter((s) => s.uses?.startsWith("actions/upload-artifact@"));
    const uploaded = uploads.flatMap((s) => listOf(s.with?.["path"]));
    const summary = one(await only("score"), "--out");
    const reports = (await find("report")).map((r) => one(r, "--out"));
    expect(reports.some((r) => r.endsWith(".html"))).toBe(true);
    for (const file of [summary, ...reports]) expect(uploaded).toContain(file);
    for (const upload of uploads) expect(steps.indexOf(upload)).toBeLessThan(steps.indexOf(gate.step));
  });

  it("passes the team's prerequisite state and frozen router manifest to every command that reads them", async () => {
    const run = await only("run");
    const conveyor = one(run, "--conveyor");
    for (const path of [["score"], ["gate"]]) expect(one(await only(...path), "--conveyor")).toBe(conveyor);
    const freeze = await only("conditions", "freeze");
    expect(one(freeze, "--router")).toMatch(/^http:/);
    expect(one(run, "--manifest")).toBe(one(freeze, "--out"));
    expect(needsOf(workflow.jobs[run.job] as Job)).toContain(freeze.job);
  });

  it("takes the API key from a secret, on the run step only, and never prints it", async () => {
    const run = await only("run");
    expect(run.step.env?.["ANTHROPIC_API_KEY"]).toBe("${{ secrets.ANTHROPIC_API_KEY }}");
    for (const job of Object.values(workflow.jobs))
      for (const step of job.steps) {
        expect(step.run ?? "").not.toMatch(/ANTHROPIC_API_KEY|secrets\./);
        if (step !== run.step) expect(JSON.stringify(step.env ?? {})).not.toContain("secrets.");
      }
  });

  it("pins the actions it uses to v4 and Node to 20", () => {
    const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
    for (const step of steps.filter((s) => s.uses))
      expect(step.uses).toMatch(
        /^actions\/(checkout|setup-node|upload-artifact|download-artifact|cache\/restore|cache\/save)@v4$/,
      );
    const setups = steps.filter((s) => s.uses?.startsWith("actions/setup-node@"));
    expect(setups.length).toBe(Object.keys(workflow.jobs).length);
    for (const setup of setups) expect(setup.with?.["node-version"]).toBe(20);
  });
});

describe("the checker itself", () => {
  it("reads commands out of multi-line scripts, && chains and backslash continuations", () => {
    const script = [
      "mkdir -p runs # fabench is not run here",
      'npx fabench run --agent "anthropic:$MODEL" --shard ${{ matrix.shard }}/4 \\',
      "  --out runs/shard-${{ matrix.shard }}.jsonl",
      "npx fabench runs merge a b --out c && npx fabench score c --out d; echo done",
    ].join("\n");
    expect(fabenchArgs(script)).toEqual([
      [
        "run",
        "--agent",
        "anthropic:$MODEL",
        "--shard",
        "${{ matrix.shard }}/4",
        "--out",
        "runs/shard-${{ matrix.shard }}.jsonl",
      ],
      ["runs", "merge", "a", "b", "--out", "c"],
      ["score", "c", "--out", "d"],
    ]);
  });

  it("reports a misspelt option, an unknown subcommand and a missing value", async () => {
    const misspelt = await checkInvocation(["run", "--agent", "reference", "--shards", "1/4", "--out", "x"]);
    expect(misspelt.problems).toEqual([expect.stringContaining("unknown option --shards")]);
    expect((await checkInvocation(["runs", "merj", "a", "--out", "b"])).problems).toEqual([
      expect.stringContaining('no command "merj"'),
    ]);
    expect((await checkInvocation(["score", "runs/x.jsonl", "--out"])).problems).toEqual([
      expect.stringContaining("--out needs a value"),
    ]);
    expect((await checkInvocation(["gate", "s.json", "--conveyor", "c.json", "--json"])).problems).toEqual(
      [],
    );
  });

  it("would fail the example with --shards in place of --shard", async () => {
    const text = readFileSync(EXAMPLE, "utf8");
    expect(text).toContain("--shard ");
    const broken = parse(text.replaceAll("--shard ", "--shards ")) as Workflow;
    const problems = (await invocationsIn(broken)).flatMap((inv) => inv.problems);
    expect(problems).toEqual([expect.stringContaining("unknown option --shards")]);
  });
});
