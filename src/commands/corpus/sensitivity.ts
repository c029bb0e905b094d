/**
 * `fabench corpus sensitivity`: the reference agent and every probe agent over the bundled (or
 * given) protocol, plan, corpus, catalogs and condition manifest, under the all-routes and
 * required-routes conditions at every catalog size; prints per probe the metric that must catch it
 * and by how much the probe falls below the reference agent. A measurement: exit 0 whether or not
 * the probes are caught; bad input exits 2 (a corpus that fails its checks exits 1, as for `run`).
 */
import { loadUnitConverter } from "../../core/index.ts";
import {
  renderSensitivity,
  runSensitivity,
  sensitivityTable,
  type SensitivityTable,
} from "../../sensitivity/index.ts";
import { EXIT, printJson, type CliIo } from "../shell/io.ts";
import { worldHooks } from "../shell/world-hooks.ts";
import { loadSystemPrompt, loadWorld } from "../../world/index.ts";

export interface SensitivityOptions {
  readonly corpus: string;
  readonly protocol: string;
  readonly plan: string;
  readonly catalogs: string;
  readonly manifest: string;
  readonly json: boolean;
}

export async function corpusSensitivity(options: SensitivityOptions, io: CliIo): Promise<number> {
  const world = await loadWorld(options, worldHooks(io, options.json));
  const systemPrompt = loadSystemPrompt(options.protocol, world.protocol);
  const runs = await runSensitivity({
    protocol: world.protocol,
    tasks: world.corpus.tasks,
    manifest: world.manifest.value,
    catalogs: new Map(world.catalogs.map((c) => [c.size, c.catalog])),
    units: await loadUnitConverter(),
    systemPrompt,
  });
  printSensitivity(io, sensitivityTable(runs), options.json);
  return EXIT.ok;
}

/** The table as text, or as one JSON object with `--json`. */
export function printSensitivity(io: CliIo, table: SensitivityTable, json: boolean): void {
  if (json) printJson(io, table);
  else io.out(renderSensitivity(table));
}
