/**
 * Router sensitivity: the same corpus and catalogs frozen by three routers — the built-in keyword
 * router, a deliberately weak one (`names`: tool and endpoint names only) and a random order —
 * each replayed to the reference agent, scored and gated. A benchmark that cannot tell these apart
 * cannot tell a good router from a bad one. Prints a Markdown table (the one in docs/conditions.md, "Router sensitivity").
 *
 *   npx tsx scripts/router-sensitivity.ts [--out-dir results/router-sensitivity]
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { main } from "../src/cli.ts";

const { values } = parseArgs({
  options: { "out-dir": { type: "string", default: "results/router-sensitivity" } },
});
const dir = values["out-dir"] as string;
mkdirSync(dir, { recursive: true });
const silent = { out: () => undefined, err: (t: string) => void process.stderr.write(t), env: {} };

const ROUTERS = ["keyword", "names", "random:1"];
type Check = { value: number | null; delta: number | null; passed: boolean };
const rows: string[] = [];
for (const router of ROUTERS) {
  const name = router.replace(":", "-");
  const manifest = join(dir, `${name}.manifest.json`);
  const run = join(dir, `${name}.jsonl`);
  const summary = join(dir, `${name}.summary.json`);
  const steps = [
    ["conditions", "freeze", "--router", router, "--out", manifest],
    ["run", "--agent", "reference", "--manifest", manifest, "--out", run],
    ["score", run, "--out", summary],
  ];
  for (const argv of steps) {
    const code = await main(argv, silent);
    if (code !== 0) throw new Error(`fabench ${argv.join(" ")} exited ${code}`);
  }
  const gate = JSON.parse(readFileSync(summary, "utf8")).gate as {
    any_deployable_condition_passed: boolean;
    conditions: Record<string, { passed: boolean; checks: Record<string, Check> }>;
  };
  for (const [condition, verdict] of Object.entries(gate.conditions)) {
    const c = verdict.checks;
    const failed = Object.entries(c)
      .filter(([, x]) => !x.passed)
      .map(([id]) => id);
    rows.push(
      `| ${router} | ${condition} | ${c["required_evidence_coverage"]?.value?.toFixed(3)} | ${c["fact_recall"]?.delta?.toFixed(3)} | ${verdict.passed ? "pass" : `fail (${failed.join(", ")})`} |`,
    );
  }
}
process.stdout.write(
  [
    "| router | condition | required evidence coverage | recall Δ vs FULL | gate on the numbers |",
    "|---|---|---|---|---|",
    ...rows,
  ].join("\n") + "\n",
);
