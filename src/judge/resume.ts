/**
 * `judge run --resume`: which episodes an interrupted judgments file already has. Like a run file's
 * resume, every line must belong to exactly this judging run — the same protocol, prompt, judge
 * (agent, model, settings) and seed, an episode of the run files given, rating the very answer
 * those run files hold now — or the resume is refused, since finishing it would mix two judgings.
 */
import { canonicalJson, episodeKey, inputError, type Problem } from "../core/index.ts";
import type { Judgment } from "./record.ts";

/** What every line of this judging run has in common. */
export interface JudgingIdentity {
  readonly protocol_sha256: string;
  readonly prompt_sha256: string;
  readonly judge: Pick<Judgment["judge"], "agent" | "model" | "settings">;
  readonly seed: number;
}

export function identityOf(j: Judgment): JudgingIdentity {
  return {
    protocol_sha256: j.protocol_sha256,
    prompt_sha256: j.prompt_sha256,
    judge: { agent: j.judge.agent, model: j.judge.model, settings: j.judge.settings },
    seed: j.seed,
  };
}

/**
 * The finished episodes' keys, or an input error (exit 2) at the first line that does not belong.
 * `answers` maps each episode of this run to the answer_sha256 its line must carry (null: none).
 */
export function finishedEpisodes(
  judgments: readonly Judgment[],
  lines: readonly number[],
  expected: JudgingIdentity,
  answers: ReadonlyMap<string, string | null>,
  file: string,
): Set<string> {
  const done = new Set<string>();
  const want = canonicalJson(expected);
  const refuse = (code: string, message: string, i: number) => {
    const where: Pick<Problem, "file" | "line"> = { file, ...(lines[i] ? { line: lines[i] } : {}) };
    return inputError("judge", code, message, where);
  };
  judgments.forEach((j, i) => {
    const own = identityOf(j);
    if (canonicalJson(own) !== want) {
      const fields = differing(own, expected);
      throw refuse(
        "resume_judgment_mismatch",
        `this line belongs to another judging run (${fields.join(", ")} differ); use a new --out`,
        i,
      );
    }
    const key = episodeKey(j.episode);
    if (!answers.has(key))
      throw refuse("resume_foreign_episode", `${key} is not an episode of the run files given`, i);
    if (answers.get(key) !== j.answer_sha256)
      throw refuse(
        "resume_answer_mismatch",
        `${key}: this line is about another answer than the run files hold now; use a new --out`,
        i,
      );
    if (done.has(key)) throw refuse("duplicate_judgment", `${key} appears twice`, i);
    done.add(key);
  });
  return done;
}

function differing(a: JudgingIdentity, b: JudgingIdentity): string[] {
  const fields: string[] = [];
  if (a.protocol_sha256 !== b.protocol_sha256) fields.push("protocol_sha256");
  if (a.prompt_sha256 !== b.prompt_sha256) fields.push("prompt_sha256");
  if (a.seed !== b.seed) fields.push("seed");
  for (const k of ["agent", "model", "settings"] as const)
    if (canonicalJson(a.judge[k]) !== canonicalJson(b.judge[k])) fields.push(`judge.${k}`);
  return fields;
}
