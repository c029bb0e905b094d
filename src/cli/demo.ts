/**
 * `fabench demo [--out DIR]`: the main job, end to end, offline, on the bundled files — check every
 * frozen file, validate and check the corpus, replay the full matrix to the deterministic
 * reference agent, score it (bootstrap included), gate it and write the report. It writes only
 * under --out, never into the package, and runs each step as its own fabench command line.
 */
import { join, relative } from "node:path";
import type { Command } from "commander";
import { rmSync } from "node:fs";
import { pilotCommands } from "../authoring/pilot-hint.ts";
import { bundledPath, toolRoot } from "../core/index.ts";
import type { Registrar } from "./options.ts";

interface Step {
  readonly title: string;
  /** What the demo prints: bundled files by their names. */
  readonly shown: readonly string[];
  readonly argv: readonly string[];
  /** Exit codes the step may end with and still count as the pipeline working. */
  readonly ok?: readonly number[];
}

export function demoSteps(dir: string): Step[] {
  const corpus = bundledPath("tasks/final-answer-corpus.json");
  const run = join(dir, "reference.jsonl");
  const summary = join(dir, "reference.summary.json");
  const step = (title: string, argv: string[], ok?: number[]): Step => ({
    title,
    argv,
    shown: argv.map((a) => (a === corpus ? "tasks/final-answer-corpus.json" : a)),
    ...(ok ? { ok } : {}),
  });
  return [
    step("Check the frozen authoring plan against the protocol", ["plan", "generate", "--check"]),
    step("Check the nested 100- and 250-endpoint catalogs", ["catalog", "build", "--check"]),
    step("Reassemble the corpus from the authored task files and compare it byte for byte", [
      "corpus",
      "generate",
      "--check",
    ]),
    step("Validate the corpus's identity against the plan and freeze its hashes", [
      "corpus",
      "validate",
      corpus,
      "--out",
      join(dir, "identity-freeze.json"),
    ]),
    step("Run every content check on the corpus", ["corpus", "check", corpus]),
    step("Check the frozen condition manifest against a fresh keyword-router freeze", [
      "conditions",
      "freeze",
      "--check",
    ]),
    step("Replay the full matrix (144 tasks × 2 catalogs × 5 conditions) to the reference agent", [
      "run",
      "--agent",
      "reference",
      "--out",
      run,
    ]),
    step("Rescore every episode, aggregate, and run the 10,000-iteration stratified bootstrap", [
      "score",
      run,
      "--out",
      summary,
    ]),
    // BLOCKED (exit 3) is the expected verdict while the prerequisite stage #432 has not succeeded.
    step("Gate the deployable conditions against FULL", ["gate", summary], [0, 1, 3]),
    step("Write the static HTML report", [
      "report",
      summary,
      "--runs",
      run,
      "--out",
      join(dir, "reference.report.html"),
    ]),
  ];
}

export function registerDemo(program: Command, r: Registrar): void {
  program
    .command("demo")
    .description(
      "Run the whole chain offline on the bundled files with the reference agent; writes only under --out.",
    )
    .option("--out <dir>", "where the run, summary and report go", "results/demo")
    .action(async (o: { out: string }) => {
      // The demo's own run file starts afresh each time (a real run would use --resume instead).
      rmSync(join(o.out, "reference.jsonl"), { force: true });
      const steps = demoSteps(o.out);
      let verdict = 0;
      for (const [index, step] of steps.entries()) {
        r.io.out(`\n[${index + 1}/${steps.length}] ${step.title}\n$ fabench ${step.shown.join(" ")}\n`);
        const code = await r.dispatch(step.argv);
        if (step.argv[0] === "gate") verdict = code;
        if (!(step.ok ?? [0]).includes(code)) {
          r.io.err(`demo: step ${index + 1} failed with exit code ${code}\n`);
          return r.setExit(code);
        }
      }
      // The shipped example price table, as a path from here (a clone's examples/ or the package's).
      const prices = relative(process.cwd(), join(toolRoot(), "examples/prices.json"));
      r.io.out(demoClosing(verdict, join(o.out, "reference.report.html"), prices));
      r.setExit(0);
    });
}

/** The agent the demo's hint names: the price table's placeholder model, which `--estimate` prices. */
export const DEMO_HINT_AGENT = "anthropic:MODEL";

/**
 * What the demo prints last: the verdict, the report, and how to answer with a real model. While
 * the prerequisite blocks (the gate's exit 3) a model's run exits 3 too, so the hint is the pilot,
 * whose commands work today; once it is met, the real run.
 */
export function demoClosing(
  verdict: number,
  report: string,
  prices: string,
  agent = DEMO_HINT_AGENT,
): string {
  const name = { 0: "PASS", 1: "FAIL", 3: "BLOCKED" }[verdict] ?? String(verdict);
  const key = "  export ANTHROPIC_API_KEY=…   # or OPENAI_API_KEY, with --agent openai:MODEL";
  const head = `
demo: the pipeline worked. Verdict: ${name}${verdict === 3 ? " (the prerequisite stage #432 has not succeeded; see `fabench conveyor status`)" : ""}.
Report: ${report}
`;
  if (verdict !== 3)
    return `${head}To run a real model:
${key}
  npx fabench run --agent ${agent} --estimate --prices ${prices}   # cost first, nothing sent (copy the file, put in your prices)
  npx fabench run --agent ${agent} --out runs/model.jsonl --concurrency 8
  npx fabench score runs/model.jsonl && npx fabench gate results/model.summary.json
`;
  const [init, estimate, ...rest] = pilotCommands({ prefix: "npx fabench", agent, prices });
  return `${head}A model's answers are locked until then (\`fabench run --agent ${agent}\` exits 3). A pilot answers today,
for power and cost planning, never the claim (copy the price file and put in your prices):
${[init, estimate, key.trimStart(), ...rest].map((l) => `  ${l}`).join("\n")}
`;
}
