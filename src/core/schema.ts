/** Turning zod failures into problems with a code and a readable path. */
import type { z } from "zod";
import type { Problem } from "./errors.ts";
import { jsonPathLines } from "./json-syntax.ts";

/** `tasks[3].required_facts[0].unit`-style path of a zod issue. */
export function issuePath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? String(part) : `.${String(part)}`;
  }
  return out === "" ? "(root)" : out;
}

export function zodProblems(error: z.ZodError, code: string, file?: string): Problem[] {
  return error.issues.map((issue) => ({
    code,
    message: `${issuePath(issue.path)}: ${issue.message}`,
    ...(file === undefined ? {} : { file }),
    jsonPath: issue.path.filter((p): p is string | number => typeof p !== "symbol"),
  }));
}

/** Gives every problem that has a JSON path and no line the line of that path in `text` (one scan). */
export function withJsonLines(problems: readonly Problem[], text: string): Problem[] {
  const located = problems.filter((p) => p.jsonPath !== undefined && p.line === undefined);
  if (located.length === 0) return [...problems];
  const lines = jsonPathLines(
    text,
    located.map((p) => p.jsonPath as ReadonlyArray<string | number>),
  );
  const lineOf = new Map(located.map((p, i) => [p, lines[i] as number]));
  return problems.map((p) => (lineOf.has(p) ? { ...p, line: lineOf.get(p) as number } : p));
}
