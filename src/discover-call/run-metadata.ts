/**
 * The metadata every record of a run repeats, as the run starts: what was asked for and checked,
 * with the revisions only the API can tell (`pending`) left for the final write to fill in.
 */
import type { RawMetadata } from "./records.ts";
import { type DiscoverCallLane, UNREPORTED } from "./run-options.ts";
import { PENDING } from "./run.ts";
import type { DiscoverCallRunDeps, DiscoverCallRunOptions } from "./run-request.ts";

export interface MetadataInput {
  readonly lane: DiscoverCallLane;
  readonly toolkitRevision: string;
  readonly taskSetSha256: string;
  readonly apiBaseUrl: string;
}

export function runMetadata(
  options: DiscoverCallRunOptions,
  input: MetadataInput,
  deps: Pick<DiscoverCallRunDeps, "runtime">,
): RawMetadata {
  return {
    lane: input.lane,
    model_revision: options.modelRevision ?? UNREPORTED,
    adapter_revision: options.adapterRevision,
    toolkit_revision: input.toolkitRevision,
    task_set_sha256: input.taskSetSha256,
    api_base_url: input.apiBaseUrl,
    api_revision: PENDING,
    catalog_revision: PENDING,
    catalog_observation_sha256: PENDING,
    runtime: deps.runtime,
    discovery_limit: options.limit,
    execute: options.execute,
  };
}
