/** The condition manifest: loaded, and checked to have been frozen from exactly these inputs. */
import {
  CONDITION_MANIFEST_FORMAT,
  parseConditionManifest,
  type ConditionManifest,
} from "../conditions/routing/index.ts";
import { inputError, loadJson, type Loaded } from "../core/index.ts";
import type { CheckedCorpus, CorpusSetting } from "./corpus.ts";

export function loadConditionManifest(path: string): Loaded<ConditionManifest> {
  return loadJson(path, "conditions", CONDITION_MANIFEST_FORMAT, parseConditionManifest);
}

/** Refuses a manifest that was not frozen from exactly these inputs. */
export function checkManifest(
  manifest: ConditionManifest,
  loaded: Pick<CorpusSetting, "protocolSha256" | "plan" | "catalogs">,
  corpus: Pick<CheckedCorpus, "tasksSha256">,
  file: string,
): void {
  const problems: string[] = [];
  if (manifest.protocol_sha256 !== loaded.protocolSha256) problems.push("protocol_sha256");
  if (manifest.plan_slots_sha256 !== loaded.plan.slots_sha256) problems.push("plan_slots_sha256");
  if (manifest.corpus_tasks_sha256 !== corpus.tasksSha256) problems.push("corpus_tasks_sha256");
  for (const c of loaded.catalogs)
    if (manifest.catalogs.find((m) => m.size === c.size)?.sha256 !== c.catalog.sha256)
      problems.push(`catalogs[${c.size}]`);
  if (problems.length > 0)
    throw inputError(
      "run",
      "condition_manifest_mismatch",
      `the condition manifest was frozen from other inputs (${problems.join(", ")} differ); rerun \`fabench conditions freeze\``,
      { file },
    );
}
