/**
 * Whether two summaries may be compared: made from the same protocol, plan, corpus and catalogs —
 * the world the episodes ran in. What may differ is what is being compared: the condition
 * manifest and its router, the agent and model, the system prompt, the trials.
 */
import { canonicalJson, inputError, type Problem } from "../core/index.ts";
import type { Summary } from "../summary/index.ts";

/** A summary with the path it was read from (every problem names B's file, the one compared against A). */
export interface NamedSummary {
  readonly path: string;
  readonly summary: Summary;
}

const short = (sha: string) => `${sha.slice(0, 12)}…`;

/** One problem per difference in the world the two runs were made from; none when comparable. */
export function comparabilityProblems(a: NamedSummary, b: NamedSummary): Problem[] {
  const A = a.summary;
  const B = b.summary;
  const problems: Problem[] = [];
  const differs = (code: string, what: string, x: string, y: string) =>
    problems.push({
      code,
      file: b.path,
      message: `${what} differs: ${x} in ${a.path}, ${y} here; two runs are comparable only when made from the same protocol, plan, corpus and catalogs`,
    });
  if (A.protocol_sha256 !== B.protocol_sha256)
    differs(
      "compare_protocol_differs",
      "protocol",
      `${A.protocol_id} ${short(A.protocol_sha256)}`,
      `${B.protocol_id} ${short(B.protocol_sha256)}`,
    );
  if (A.run.plan_slots_sha256 !== B.run.plan_slots_sha256)
    differs(
      "compare_plan_differs",
      "plan (slots sha256)",
      short(A.run.plan_slots_sha256),
      short(B.run.plan_slots_sha256),
    );
  if (A.run.corpus_tasks_sha256 !== B.run.corpus_tasks_sha256)
    differs(
      "compare_corpus_differs",
      "corpus (tasks sha256)",
      short(A.run.corpus_tasks_sha256),
      short(B.run.corpus_tasks_sha256),
    );
  else if (A.run.corpus_file_sha256 !== B.run.corpus_file_sha256)
    differs(
      "compare_corpus_differs",
      "corpus file (sha256)",
      short(A.run.corpus_file_sha256),
      short(B.run.corpus_file_sha256),
    );
  if (canonicalJson(catalogs(A)) !== canonicalJson(catalogs(B)))
    differs("compare_catalogs_differ", "catalogs", catalogText(A), catalogText(B));
  return problems;
}

/** Refuses two summaries that are not comparable (exit 2), one line per difference. */
export function checkComparable(a: NamedSummary, b: NamedSummary): void {
  const problems = comparabilityProblems(a, b);
  if (problems.length > 0)
    throw inputError("compare", problems[0]?.code ?? "compare_differs", problems[0]?.message ?? "", {
      problems,
    });
}

/** The catalogs by size, so two runs listing the same catalogs in another order still compare. */
function catalogs(s: Summary): Array<{ size: number; sha256: string }> {
  return [...s.run.catalogs].sort((x, y) => x.size - y.size).map((c) => ({ size: c.size, sha256: c.sha256 }));
}

function catalogText(s: Summary): string {
  return catalogs(s)
    .map((c) => `${c.size}: ${short(c.sha256)}`)
    .join(", ");
}

/** The run settings that differ between A and B, by name: what the comparison is of. */
export function differingSettings(A: Summary, B: Summary): string[] {
  const fields: Array<[string, (s: Summary) => unknown]> = [
    ["condition manifest", (s) => s.run.condition_manifest_sha256],
    ["router", (s) => [s.run.router_id, s.run.router_config_sha256]],
    ["agent", (s) => s.run.agent],
    ["model", (s) => s.run.model],
    ["agent settings", (s) => s.run.agent_settings],
    ["system prompt", (s) => s.run.system_prompt_sha256],
    ["trials", (s) => s.run.trials],
    ["max turns", (s) => s.run.max_turns],
    ["tokenizer", (s) => s.run.tokenizer],
    ["progressive trigger", (s) => s.run.progressive_trigger ?? "observed"],
  ];
  return fields.filter(([, f]) => canonicalJson(f(A)) !== canonicalJson(f(B))).map(([name]) => name);
}
