/** Turning zod failures into problems with a code and a readable path. */
import type { z } from "zod";
import type { Problem } from "./errors.ts";

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
  }));
}
