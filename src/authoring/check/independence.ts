/**
 * Independence rules across tasks. The bootstrap treats the tasks of a cell as independent units;
 * a corpus whose tasks are one sentence with a number changed gives intervals far narrower than a
 * real model deserves. These rules catch copies a reader would call the same question:
 *
 * - `template_reuse`: two queries equal once numbers, identifiers and quoted names are masked;
 * - `near_duplicate_query`: within a stratum, masked queries whose character 3-gram Jaccard
 *   similarity exceeds 0.5;
 * - `duplicate_task_content`: two tasks with the same required routes, fact keys and fact values.
 */
import { canonicalJson, compareCodePoints, normalizeQuery } from "../../core/index.ts";
import type { Task } from "../task.ts";

export const NEAR_DUPLICATE_JACCARD = 0.5;

/** A quoted span in any of the corpus's languages: "…", '…', “…”, ‘…’, «…», „…“, 「…」, 『…』. */
const QUOTED = /"[^"]*"|'[^'\s][^']*'|“[^”]*”|‘[^’]*’|«[^»]*»|„[^“”]*[“”]|「[^」]*」|『[^』]*』/gu;
/** An ASCII token with joiners (MAT-4471-TI, P-2021-0187, ana@lab.example.org, 3.5, 2024-118). */
const TOKEN = /[A-Za-z0-9](?:[A-Za-z0-9_.\-/@+]*[A-Za-z0-9])?/g;

/** Numbers become ‹n›, tokens holding a digit or an @ become ‹id›; words stay. */
function maskToken(token: string): string {
  if (/^\d+(?:[.,]\d+)*$/.test(token)) return " ‹n› ";
  return /[\d@]/.test(token) ? " ‹id› " : token;
}

/** The query with quoted names, identifiers and numbers replaced by placeholders, then normalised. */
export function maskQuery(query: string): string {
  return normalizeQuery(query.replace(QUOTED, " ‹q› ").replace(TOKEN, maskToken));
}

function trigrams(text: string): Set<string> {
  const chars = [...text];
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) grams.add(chars.slice(i, i + 3).join(""));
  return grams;
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const g of a) if (b.has(g)) shared += 1;
  const union = a.size + b.size - shared;
  return union === 0 ? 1 : shared / union;
}

/** What makes two tasks the same content: routes in order, fact keys and their values. */
export function contentKey(task: Pick<Task, "required_routes" | "required_facts">): string {
  const facts = [...task.required_facts]
    .sort((a, b) => compareCodePoints(a.key, b.key))
    .map((f) => [f.key, f.value]);
  return canonicalJson({ routes: task.required_routes, facts });
}

export interface IndependenceProblem {
  readonly code: "template_reuse" | "near_duplicate_query" | "duplicate_task_content";
  /** The later task of the pair (in the given order) and the earlier one it repeats. */
  readonly index: number;
  readonly message: string;
}

/** Every pair that breaks a rule, reported on the later task of the pair. */
export function independenceProblems(tasks: readonly Task[]): IndependenceProblem[] {
  const problems: IndependenceProblem[] = [];
  const masked = tasks.map((t) => maskQuery(t.query));
  const grams = masked.map(trigrams);
  const firstTemplate = new Map<string, number>();
  const firstContent = new Map<string, number>();
  for (const [i, task] of tasks.entries()) {
    const template = masked[i] as string;
    const earlier = firstTemplate.get(template);
    if (earlier !== undefined)
      problems.push({
        code: "template_reuse",
        index: i,
        message: `the query is the query of ${tasks[earlier]?.semantic_task_id} with only numbers, identifiers or quoted names changed`,
      });
    else {
      firstTemplate.set(template, i);
      for (let j = 0; j < i; j++) {
        if (tasks[j]?.answer_task_stratum !== task.answer_task_stratum || masked[j] === template) continue;
        const similarity = jaccard(grams[i] as Set<string>, grams[j] as Set<string>);
        if (similarity > NEAR_DUPLICATE_JACCARD) {
          problems.push({
            code: "near_duplicate_query",
            index: i,
            message: `the masked query shares ${similarity.toFixed(2)} of its character 3-grams with the query of ${tasks[j]?.semantic_task_id} (limit ${NEAR_DUPLICATE_JACCARD})`,
          });
          break;
        }
      }
    }
    const key = contentKey(task);
    const same = firstContent.get(key);
    if (same !== undefined)
      problems.push({
        code: "duplicate_task_content",
        index: i,
        message: `same required routes, fact keys and fact values as ${tasks[same]?.semantic_task_id}`,
      });
    else firstContent.set(key, i);
  }
  return problems;
}
