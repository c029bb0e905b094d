/** The bundled protocol, and small variants of it for tests. */
import { readFileSync } from "node:fs";
import { parseProtocol, type Protocol } from "../../src/authoring/index.ts";

export const BUNDLED_PROTOCOL_PATH = "manifests/preregistration.json";

export function bundledProtocol(): Protocol {
  const result = parseProtocol(
    JSON.parse(readFileSync(BUNDLED_PROTOCOL_PATH, "utf8")),
    BUNDLED_PROTOCOL_PATH,
  );
  if (!result.ok) throw new Error(result.problems.map((p) => p.message).join("; "));
  return result.value;
}

/** A protocol with its own strata, languages and per-cell count, counts kept consistent. */
export function smallProtocol(strata: string[], languages: string[], perCell: number): Protocol {
  const base = bundledProtocol();
  return {
    ...base,
    protocol_id: "test-small",
    answer_task_strata: strata,
    corrective_strata: base.corrective_strata.filter((s) => strata.includes(s)),
    languages: languages.map((id) => ({ id, description: id })),
    tasks_per_cell: perCell,
    expected_cell_count: strata.length * languages.length,
    expected_task_count: strata.length * languages.length * perCell,
  };
}
