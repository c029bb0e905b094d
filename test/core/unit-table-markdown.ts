/** The unit table as docs/file-formats.md shows it, rendered from `UNIT_TABLE` so the two cannot drift. */
import { UNIT_TABLE } from "../../src/core/index.ts";

const code = (s: string) => `\`${s}\``;

export function unitTableMarkdown(): string {
  const rows = UNIT_TABLE.map(
    (e) =>
      `| ${code(e.canonical)} | ${e.spellings.map(code).join(" ")} | ${e.mathjs === null ? "— (equal only to itself)" : code(e.mathjs)} |`,
  );
  return ["| unit | also read as | mathjs converts |", "|---|---|---|", ...rows].join("\n");
}
