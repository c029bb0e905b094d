/**
 * Benchmark: how long `fabench --version` takes to start from the built package, against a bare
 * `node -e 0`, measured side by side in one run (alternating, so machine noise hits both). The
 * package is built as `npm run build` builds it (scripts/build.ts: the bundle) into
 * .cache/bench-startup/ (dist/ with package.json and manifests beside it, as an installed package
 * has them). Target: median at most 2 × the bare start.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { median, runs, type BenchResult } from "./stats.ts";

const RUNS = runs(15);

function timed(args: readonly string[]): number {
  const started = performance.now();
  const child = spawnSync(process.execPath, [...args], { stdio: ["ignore", "pipe", "pipe"] });
  const ms = performance.now() - started;
  if (child.status !== 0)
    throw new Error(`node ${args.join(" ")} exited ${child.status}: ${child.stderr.toString()}`);
  return ms;
}

export function runStartupBench(): BenchResult {
  const root = resolve(".cache/bench-startup");
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  // Inside the project, so the compiled files find its node_modules as an installed package would.
  execFileSync(process.execPath, ["--import", "tsx", "scripts/build.ts", join(root, "dist")], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  cpSync("package.json", join(root, "package.json"));
  cpSync("manifests", join(root, "manifests"), { recursive: true });
  const entry = `import(${JSON.stringify(new URL(`file://${join(root, "dist/cli.js")}`).href)}).then(async (m) => { process.exitCode = await m.main(["--version"]); })`;
  const bare: number[] = [];
  const version: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    bare.push(timed(["-e", "0"]));
    version.push(timed(["-e", entry]));
  }
  const ratio = median(version) / median(bare);
  return {
    name: "startup_version",
    median_ms: Math.round(median(version) * 10) / 10,
    bare_node_median_ms: Math.round(median(bare) * 10) / 10,
    ratio: Math.round(ratio * 100) / 100,
    runs: RUNS,
    target: "median fabench --version at most 2 × a bare node -e 0",
    met: ratio <= 2,
  };
}
