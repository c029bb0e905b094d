/**
 * The command lines that answer with a model today, while the prerequisite lock holds: a pilot
 * (`fabench pilot init`), for power and cost planning, never the claim. The lock's refusal in
 * `run` and the demo's closing hint print them, so a user who meets the lock is shown what works
 * instead of a run line that exits 3; a test runs every line printed. Imports nothing: the CLI's
 * demo reads it without loading a schema.
 */

/** The folder, task glob and output paths of the pilot the hint sets up (docs/running.md, "Run a pilot"). */
export const PILOT_HINT = {
  dir: "pilot",
  tasks: "v4-*-en-0*",
  run: "runs/pilot.jsonl",
  summary: "results/pilot.summary.json",
} as const;

/** A word as a POSIX shell reads it: as is when it is plain, else in single quotes. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/u.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

export interface PilotCommandsOptions {
  /** How the user starts fabench: `fabench`, `npx fabench`, `npm run -s fabench --`. */
  readonly prefix: string;
  /** The agent spec the pilot runs (`anthropic:MODEL`, `command:./my-agent`, …). */
  readonly agent: string;
  /** A price table for the cost estimate, when there is one to name. */
  readonly prices?: string;
}

/**
 * The pilot, one command a line, each with what it is for after `#`: make the pilot folder,
 * estimate the run's cost (nothing sent), run it, score it, gate it (its verdict says NOT
 * PREREGISTERED), and a first power estimate from its answers.
 */
export function pilotCommands(options: PilotCommandsOptions): string[] {
  const { dir, tasks, run, summary } = PILOT_HINT;
  const f = options.prefix;
  const agentRun = `${f} run --pilot ${dir} --agent ${shellWord(options.agent)} --task ${shellWord(tasks)}`;
  const prices = options.prices === undefined ? "" : ` --prices ${shellWord(options.prices)}`;
  return [
    `${f} pilot init ${dir}   # the protocol without its prerequisite gate, labelled PILOT, and its files`,
    `${agentRun} --estimate${prices}   # its cost first: nothing is sent`,
    `${agentRun} --out ${run}`,
    `${f} score --pilot ${dir} ${run} --out ${summary} --allow-incomplete`,
    `${f} gate --pilot ${dir} ${summary}   # verdict: … NOT PREREGISTERED`,
    `${f} power --pilot ${dir} --runs ${run} --datasets 100 --iterations 200   # a first look at the tasks and trials a real run needs`,
  ];
}
