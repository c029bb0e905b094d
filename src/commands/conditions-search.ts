/** `fabench conditions profile --search`: recall@k of the portable searches, searching with each task's request. */
import { renderSearchProfile, searchProfile } from "../conditions/search/index.ts";
import { loadWorld } from "../world/index.ts";
import { EXIT, printJson, type CliIo } from "./shell/io.ts";
import { worldHooks } from "./shell/world-hooks.ts";

export interface SearchProfileOptions {
  readonly protocol: string;
  readonly plan: string;
  readonly corpus: string;
  readonly catalogs: string;
  readonly k: number;
  readonly json: boolean;
}

/**
 * The search counterpart of the router profile: no manifest and no model, only the frozen
 * catalogs, the corpus and the engines. Every catalog size of the protocol, both engines.
 */
export async function conditionsSearchProfile(options: SearchProfileOptions, io: CliIo): Promise<number> {
  const world = await loadWorld(options, worldHooks(io, options.json));
  const profile = searchProfile({
    tasks: world.corpus.tasks,
    catalogs: world.catalogs.map((c) => ({ size: c.size, endpoints: c.catalog.endpoints })),
    k: options.k,
  });
  if (options.json) printJson(io, profile);
  else io.out(renderSearchProfile(profile));
  return EXIT.ok;
}
