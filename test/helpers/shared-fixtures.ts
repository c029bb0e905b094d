/**
 * Fixtures many test files read, built once per test run instead of in each file's `beforeAll`:
 * reference-agent runs of the bundled corpus and their summaries, written by the CLI itself (in
 * process) into the run's shared folder (test/helpers/global-setup.ts). The first file to ask
 * builds a fixture while holding `NAME.building` (made with an exclusive mkdir); the others wait
 * for `NAME.done`, or fail at once on `NAME.failed`. Read them in place, or `copyFixture` into a
 * test's own folder before writing beside or into them.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { inject } from "vitest";
import { main } from "../../src/cli.ts";

export const FIXTURES = {
  /** Every English task, one trial, every condition and catalog size (an incomplete run). */
  en: { runArgs: ["--task", "v4-*-en-0?", "--trials", "1"], complete: false },
  /** The whole matrix: every task, condition and catalog size, one trial. */
  full: { runArgs: ["--concurrency", "4"], complete: true },
} as const;

export type FixtureName = keyof typeof FIXTURES;
export interface Fixture {
  readonly run: string;
  readonly summary: string;
}

async function cli(argv: readonly string[]): Promise<void> {
  let err = "";
  const code = await main(argv, { out: () => undefined, err: (t) => void (err += t) });
  if (code !== 0) throw new Error(`shared fixture: fabench ${argv.join(" ")} exited ${code}: ${err}`);
}

async function build(name: FixtureName, fixture: Fixture): Promise<void> {
  const spec = FIXTURES[name];
  await cli(["run", "--agent", "reference", ...spec.runArgs, "--out", fixture.run]);
  await cli([
    "score",
    fixture.run,
    "--out",
    fixture.summary,
    ...(spec.complete ? [] : ["--allow-incomplete"]),
  ]);
}

/** The reference run `name` and its summary, built now if no other file has built them yet. */
export async function sharedFixture(name: FixtureName): Promise<Fixture> {
  const folder = inject("sharedFixtureFolder");
  const fixture = { run: join(folder, `${name}.jsonl`), summary: join(folder, `${name}.summary.json`) };
  const done = join(folder, `${name}.done`);
  const failed = join(folder, `${name}.failed`);
  let builder = false;
  try {
    mkdirSync(join(folder, `${name}.building`));
    builder = true;
  } catch {
    /* another file builds it */
  }
  if (builder) {
    try {
      await build(name, fixture);
      writeFileSync(done, "");
    } catch (error) {
      writeFileSync(failed, String(error));
      throw error;
    }
    return fixture;
  }
  // Waiting for another worker's build: a poll, not a time limit (the test's own timeout applies).
  while (!existsSync(done)) {
    if (existsSync(failed)) throw new Error(readFileSync(failed, "utf8"));
    await sleep(100);
  }
  return fixture;
}

/** Copies fixture `name`'s run and summary into `folder` as `run.jsonl` and `run.summary.json`. */
export async function copyFixture(name: FixtureName, folder: string): Promise<Fixture> {
  const source = await sharedFixture(name);
  const fixture = { run: join(folder, "run.jsonl"), summary: join(folder, "run.summary.json") };
  copyFileSync(source.run, fixture.run);
  copyFileSync(source.summary, fixture.summary);
  return fixture;
}
