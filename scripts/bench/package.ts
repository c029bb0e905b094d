/**
 * Benchmark: the commands a user waits on, from the installed package, side by side with a bare
 * `node -e 0` in the same loop (one of each per round, so the machine's noise hits all alike;
 * `--version` against the bare start is the `startup` benchmark's), `score` of the 1,440-episode
 * demo run (≤ 1000 ms), `gate` and
 * `report` of its summary (≤ 500 ms each), and the time to the first line `run --agent reference`
 * shows on a terminal (≤ 1000 ms; also the first episode's progress line, for information).
 * The package is bundled with `npm run build`'s script into .cache/bench-package/ (package.json,
 * bin, manifests and tasks beside it, node_modules found above it as an installed package finds
 * its own). The verified-world cache is warm (one score first) and lives in a temporary folder,
 * which is also every command's working directory (no project files there to warn about).
 * FABENCH_BENCH_PACKAGE=DIR times an already built package folder instead (to measure another
 * revision the same way: `npm pack` it and unpack it in a folder under the project), and
 * FABENCH_BENCH_BASELINE=DIR times such a folder beside it, in the same rounds (before/after side
 * by side: each line then also carries `baseline_median_ms` and `baseline_runs_ms`; the first
 * line's time is measured for the package only).
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { median, runs, type BenchResult } from "./stats.ts";

const RUNS = runs(5);

interface Package {
  readonly root: string;
  readonly work: string;
  readonly env: NodeJS.ProcessEnv;
}

const GIVEN = process.env["FABENCH_BENCH_PACKAGE"];
const BASELINE = process.env["FABENCH_BENCH_BASELINE"];

function preparePackage(): Package {
  const work = mkdtempSync(join(tmpdir(), "fabench-package-bench-"));
  const env = { ...process.env, FABENCH_CACHE_DIR: join(work, "cache"), FABENCH_NO_CACHE: "" };
  if (GIVEN) return { root: resolve(GIVEN), work, env };
  const root = resolve(".cache/bench-package");
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  execFileSync(process.execPath, ["--import", "tsx", "scripts/build.ts", join(root, "dist")], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  for (const part of ["package.json", "bin", "manifests", "tasks"])
    cpSync(part, join(root, part), { recursive: true });
  return { root, work, env };
}

function timed(pkg: Package, args: readonly string[]): number {
  const started = performance.now();
  const child = spawnSync(process.execPath, [...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: pkg.env,
    cwd: pkg.work,
  });
  const ms = performance.now() - started;
  if (child.status !== 0 && child.status !== 3)
    throw new Error(`node ${args.join(" ")} exited ${child.status}: ${child.stderr.toString()}`);
  return ms;
}

/** `fabench ARGS` from the package's own bin, as `npx fabench` runs it. */
const fabench = (pkg: Package, ...args: string[]) => [join(pkg.root, "bin/fabench.mjs"), ...args];

/**
 * Milliseconds to the first line `run` writes on a terminal, and to its first episode's progress
 * line. The package's `main` runs with a terminal's io (stderr a TTY), as a user's shell has it.
 */
function firstLines(pkg: Package, out: string): Promise<{ first: number; episode: number }> {
  const cli = new URL(`file://${join(pkg.root, "dist/cli.js")}`).href;
  const entry = `import(${JSON.stringify(cli)}).then(async (m) => { process.exitCode = await m.main(${JSON.stringify(["run", "--agent", "reference", "--out", out])}, { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t), isTty: true, env: process.env }); })`;
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(process.execPath, ["-e", entry], {
      stdio: ["ignore", "pipe", "pipe"],
      env: pkg.env,
      cwd: pkg.work,
    });
    let first: number | null = null;
    const seen = (chunk: Buffer) => {
      first ??= performance.now() - started;
      if (chunk.toString().includes(" episodes")) {
        child.kill("SIGKILL");
        done({ first, episode: performance.now() - started });
      }
    };
    child.stdout.on("data", seen);
    child.stderr.on("data", seen);
    child.on("exit", (code) => {
      if (code !== null) fail(new Error(`run exited ${code} before its first episode`));
    });
  });
}

const round = (ms: number) => Math.round(ms);

export async function runPackageBench(): Promise<BenchResult[]> {
  const pkg = preparePackage();
  try {
    const run = join(pkg.work, "demo.jsonl");
    const summary = join(pkg.work, "demo.summary.json");
    timed(pkg, fabench(pkg, "run", "--agent", "reference", "--out", run));
    timed(pkg, fabench(pkg, "score", run, "--out", summary)); // warms the verified-world cache
    const base = BASELINE === undefined ? null : { ...pkg, root: resolve(BASELINE) };
    const before = join(pkg.work, "baseline.summary.json");
    if (base) timed(base, fabench(base, "score", run, "--out", before));
    const t = { bare: [] as number[], score: [] as number[], gate: [] as number[] };
    const more = { report: [] as number[], first: [] as number[], episode: [] as number[] };
    const was = { score: [] as number[], gate: [] as number[], report: [] as number[] };
    for (let i = 0; i < RUNS; i++) {
      t.bare.push(timed(pkg, ["-e", "0"]));
      t.score.push(timed(pkg, fabench(pkg, "score", run, "--out", summary)));
      t.gate.push(timed(pkg, fabench(pkg, "gate", summary)));
      more.report.push(timed(pkg, fabench(pkg, "report", summary, "--out", join(pkg.work, "r.html"))));
      if (base) {
        was.score.push(timed(base, fabench(base, "score", run, "--out", before)));
        was.gate.push(timed(base, fabench(base, "gate", before)));
        was.report.push(timed(base, fabench(base, "report", before, "--out", join(pkg.work, "b.html"))));
      }
      const lines = await firstLines(pkg, join(pkg.work, `run-${i}.jsonl`));
      more.first.push(lines.first);
      more.episode.push(lines.episode);
    }
    const bare = median(t.bare);
    const line = (
      name: string,
      values: number[],
      target: string,
      limit: number,
      baseline: number[] = [],
    ): BenchResult => ({
      name,
      median_ms: round(median(values)),
      bare_node_median_ms: round(bare),
      runs_ms: values.map(round),
      ...(baseline.length === 0
        ? {}
        : { baseline_median_ms: round(median(baseline)), baseline_runs_ms: baseline.map(round) }),
      target,
      met: median(values) <= limit,
    });
    return [
      line("package_score_1440_episode_run", t.score, "median under 1000 ms", 1000, was.score),
      line("package_gate", t.gate, "median under 500 ms", 500, was.gate),
      line("package_report", more.report, "median under 500 ms", 500, was.report),
      {
        ...line("package_run_first_line", more.first, "median under 1000 ms", 1000),
        first_episode_median_ms: round(median(more.episode)),
      },
    ];
  } finally {
    rmSync(pkg.work, { recursive: true, force: true });
    if (!GIVEN) rmSync(pkg.root, { recursive: true, force: true });
  }
}
