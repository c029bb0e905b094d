/** Whether run records were made from this world: the corpus and protocol hashes they carry. */
import type { RunMetadata } from "../conditions/runner/index.ts";
import { inputError } from "../core/index.ts";
import type { World } from "./load.ts";

/** Refuses (exit 2) runs made from another corpus or protocol, naming only what differs and the flag that fixes it. */
export function checkRunsMadeFrom(
  metadata: Pick<RunMetadata, "corpus_tasks_sha256" | "protocol_sha256" | "protocol_id">,
  world: Pick<World, "corpus" | "protocolSha256">,
  file: string,
): void {
  if (
    metadata.corpus_tasks_sha256 === world.corpus.tasksSha256 &&
    metadata.protocol_sha256 === world.protocolSha256
  )
    return;
  throw inputError(
    "score",
    "run_input_mismatch",
    mismatchMessage([
      ["corpus", "--corpus", metadata.corpus_tasks_sha256, world.corpus.tasksSha256],
      ["protocol", "--protocol", metadata.protocol_sha256, world.protocolSha256],
    ]) +
      (metadata.protocol_id.endsWith("-pilot") && metadata.protocol_sha256 !== world.protocolSha256
        ? ` (these are pilot runs of ${metadata.protocol_id}: pass their folder with --pilot DIR)`
        : ""),
    { file },
  );
}

/** Names only the inputs that differ, with both hashes and the flag that gives the run's own. */
function mismatchMessage(
  inputs: ReadonlyArray<readonly [name: string, flag: string, run: string, given: string]>,
): string {
  const differing = inputs.filter(([, , run, given]) => run !== given);
  const parts = differing.map(
    ([name, , run, given]) => `${name} (run ${run.slice(0, 12)}…, given ${given.slice(0, 12)}…)`,
  );
  const flags = differing.map(([, flag]) => flag).join(" and ");
  return `the runs were made from another ${parts.join(" and another ")}; pass the files they were made from with ${flags}`;
}
