/**
 * `npm run demo`: the main job, offline, on the bundled files. It grows with the pipeline; today
 * it checks the frozen plan, catalogs, corpus and condition manifest, validates the corpus's
 * identity (freezing its hashes under results/demo/), runs the full content checker, and replays
 * the whole condition matrix to the deterministic reference agent.
 */
import { rmSync } from "node:fs";
import { main } from "../src/cli.ts";

// The demo's own output; each demo starts it afresh (a real run would use --resume instead).
const REFERENCE_RUN = "results/demo/reference.jsonl";
rmSync(REFERENCE_RUN, { force: true });

const steps: Array<{ title: string; argv: string[] }> = [
  { title: "Check the frozen authoring plan against the protocol", argv: ["plan", "generate", "--check"] },
  { title: "Check the nested 100- and 250-endpoint catalogs", argv: ["catalog", "build", "--check"] },
  { title: "Regenerate the bundled corpus and compare it byte for byte", argv: ["corpus", "generate", "--check"] },
  {
    title: "Validate the corpus's identity against the plan and freeze its hashes",
    argv: ["corpus", "validate", "tasks/final-answer-corpus.json", "--freeze-out", "results/demo/identity-freeze.json"],
  },
  { title: "Run every content check on the corpus", argv: ["corpus", "check", "tasks/final-answer-corpus.json"] },
  { title: "Check the frozen condition manifest against a fresh keyword-router freeze", argv: ["conditions", "freeze", "--check"] },
  {
    title: "Replay the full matrix (144 tasks × 2 catalogs × 5 conditions) to the reference agent",
    argv: ["run", "--agent", "reference", "--out", REFERENCE_RUN],
  },
];

for (const [index, step] of steps.entries()) {
  process.stdout.write(`\n[${index + 1}/${steps.length}] ${step.title}\n$ fabench ${step.argv.join(" ")}\n`);
  const code = await main(step.argv);
  if (code !== 0) {
    process.stderr.write(`demo: step ${index + 1} failed with exit code ${code}\n`);
    process.exit(code);
  }
}
process.stdout.write("\ndemo: every step passed\n");
