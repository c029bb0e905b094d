/** A run file's records as CLI tests read them, and the key that names an episode. */
import { readFileSync } from "node:fs";

export type Rec = Record<string, unknown> & {
  semantic_task_id: string;
  catalog_size: number;
  condition: string;
  trial: number;
};

/** Every record of a run file, in file order. */
export const read = (path: string): Rec[] =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Rec);

/** `task|size|condition|trial`: one episode. */
export const key = (r: Rec) => `${r.semantic_task_id}|${r.catalog_size}|${r.condition}|${r.trial}`;
