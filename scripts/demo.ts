/**
 * `npm run demo`: the main job, offline, on the bundled files. It grows with the pipeline; today
 * it checks the frozen plan against the protocol and validates the identity of the bundled
 * example corpus, freezing its hashes under results/demo/.
 */
import { main } from "../src/cli.ts";

const steps: Array<{ title: string; argv: string[] }> = [
  { title: "Check the frozen authoring plan against the protocol", argv: ["plan", "generate", "--check"] },
  {
    title: "Validate the identity of the bundled example corpus and freeze its hashes",
    argv: ["corpus", "validate", "examples/identity-corpus.jsonl", "--freeze-out", "results/demo/identity-freeze.json"],
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
