/** A problem with one row of a corpus: what identity validation and the content check both report. */
export interface RowProblem<Code extends string = string> {
  readonly code: Code;
  readonly semantic_task_id: string | null;
  /** `line N` (JSONL), `index N` (JSON) or `plan slots[N]` (a slot with no row). */
  readonly location: string;
  readonly message: string;
  /** Line in the corpus file (null for plan-level problems); not part of the JSON report. */
  readonly line: number | null;
}
