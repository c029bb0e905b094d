/**
 * `fabench pilot init DIR`: a labelled pilot protocol and every file derived from it (plan, corpus,
 * condition manifest, conveyor), written under DIR and nowhere else. The folder is built beside DIR
 * and renamed into place at the end, so a failure leaves nothing half-written; the frozen files are
 * only read. `run`, `score`, `gate` and `report` take `--pilot DIR` to use these files.
 */
import { copyFileSync, existsSync, renameSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import {
  CORPUS_FORMAT,
  isPilotProtocol,
  PILOT_FILES,
  PILOT_FORMAT,
  PILOT_NOTE,
  pilotMarkerSchema,
  pilotProtocol,
  type Protocol,
} from "../authoring/index.ts";
import {
  canonicalSha256,
  checkOutput,
  formatJsonFile,
  formatOf,
  loadWithSchema,
  makeFolders,
  parseJsonText,
  readTextFile,
  sha256Hex,
  usageError,
  writeFileAtomic,
  wrongKind,
} from "../core/index.ts";
import type { Conveyor } from "../gates/index.ts";
import { conditionsFreeze } from "./conditions.ts";
import { corpusGenerate } from "./corpus/content.ts";
import { EXIT, printJson, type CliIo } from "./shell/io.ts";
import { planGenerate } from "./plan.ts";
import { loadProtocol, loadConveyor } from "../world/index.ts";

export interface PilotInitOptions {
  readonly dir: string;
  /** The protocol the pilot is made from (the bundled preregistration by default). */
  readonly protocol: string;
  readonly corpus: string;
  readonly authored: string;
  readonly catalogs: string;
  readonly conveyor: string;
  /** Declare the tool-search conditions (#34) beside the preregistered ones. */
  readonly withSearch?: boolean;
  readonly json: boolean;
}

/** The corpus's recorded generator revision, so the pilot's corpus regenerates byte-for-byte. */
function corpusRevision(path: string): string | undefined {
  const value = parseJsonText(readTextFile(path, "corpus").text, path, "corpus");
  const wrong = wrongKind(path, formatOf(value), CORPUS_FORMAT, "corpus");
  if (wrong) throw wrong;
  const revision = (value as { generator_source_revision?: unknown } | null)?.generator_source_revision;
  return typeof revision === "string" ? revision : undefined;
}

export async function pilotInit(options: PilotInitOptions, io: CliIo): Promise<number> {
  const dir = resolve(options.dir);
  if (existsSync(dir))
    throw usageError("pilot_exists", `${options.dir} exists; choose a new folder for the pilot`);
  checkOutput(join(dir, PILOT_FILES.marker), { inputs: [], flag: "the pilot folder" });
  const source = loadProtocol(options.protocol);
  if (isPilotProtocol(source.value))
    throw usageError("already_a_pilot", `${options.protocol} is already a pilot protocol`);
  const protocol: Protocol = pilotProtocol(source.value, { withSearch: options.withSearch === true });
  const staging = `${dir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  makeFolders(staging);
  try {
    const code = await writePilotFiles(staging, protocol, options, io);
    if (code !== EXIT.ok) return code;
    writeMarker(staging, protocol, source.value);
    renameSync(staging, dir);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  if (options.json) printJson(io, { ok: true, dir: options.dir, protocol_id: protocol.protocol_id });
  else
    io.out(
      `wrote pilot ${options.dir}: protocol ${protocol.protocol_id} (prerequisite gate removed${options.withSearch === true ? ", tool-search conditions added" : ""}), plan, corpus, condition manifest, conveyor\n` +
        `  use it with --pilot ${options.dir} on any command that reads a protocol, plan, corpus or manifest (gate and report find it from the summary); its verdicts say NOT PREREGISTERED\n`,
    );
  return EXIT.ok;
}

/** The pilot's protocol, prompts, plan, corpus, condition manifest and conveyor, made in the staging folder. */
async function writePilotFiles(
  staging: string,
  protocol: Protocol,
  options: PilotInitOptions,
  io: CliIo,
): Promise<number> {
  // The derived steps print their own "wrote …" lines; a pilot reports once, at the end.
  const quiet: CliIo = { ...io, out: () => undefined };
  const file = (name: keyof typeof PILOT_FILES) => join(staging, PILOT_FILES[name]);
  const revision = corpusRevision(options.corpus);
  writeFileAtomic(file("protocol"), formatJsonFile(protocol));
  // The prompts travel with the protocol: the agent's system prompt, and the judge's frozen one.
  for (const prompt of [protocol.agent_loop.system_prompt_file, protocol.judge.prompt_file]) {
    makeFolders(join(staging, dirname(prompt)));
    copyFileSync(join(dirname(options.protocol), prompt), join(staging, prompt));
  }
  const steps: Array<() => number | Promise<number>> = [
    () => planGenerate({ protocol: file("protocol"), out: file("plan"), check: false, json: false }, quiet),
    () =>
      corpusGenerate(
        {
          protocol: file("protocol"),
          plan: file("plan"),
          catalogs: options.catalogs,
          forbiddenCorpus: [],
          authored: options.authored,
          out: file("corpus"),
          ...(revision === undefined ? {} : { sourceRevision: revision }),
          check: false,
          json: false,
        },
        quiet,
      ),
    () =>
      conditionsFreeze(
        {
          protocol: file("protocol"),
          plan: file("plan"),
          catalogs: options.catalogs,
          corpus: file("corpus"),
          out: file("manifest"),
          router: "keyword",
          routerArgs: [],
          routerTimeoutMs: 30_000,
          check: false,
          json: false,
        },
        { ...quiet, err: () => undefined },
      ),
  ];
  for (const step of steps) {
    const code = await step();
    if (code !== EXIT.ok) return code;
  }
  const conveyor: Conveyor = {
    ...loadConveyor(options.conveyor),
    protocol_id: protocol.protocol_id,
    protocol_sha256: canonicalSha256(protocol),
  };
  writeFileAtomic(file("conveyor"), formatJsonFile(conveyor));
  return EXIT.ok;
}

/** The marker `--pilot DIR` checks: what the pilot was made from, and the hash of each of its files. */
function writeMarker(staging: string, protocol: Protocol, source: Protocol): void {
  const file = (name: keyof typeof PILOT_FILES) => join(staging, PILOT_FILES[name]);
  const files = Object.fromEntries(
    (["protocol", "plan", "corpus", "manifest", "conveyor"] as const).map((name) => [
      PILOT_FILES[name],
      sha256Hex(readTextFile(file(name), "pilot").bytes),
    ]),
  );
  const marker = {
    format: PILOT_FORMAT,
    protocol_id: protocol.protocol_id,
    protocol_sha256: canonicalSha256(protocol),
    made_from: { protocol_id: source.protocol_id, protocol_sha256: canonicalSha256(source) },
    note: PILOT_NOTE,
    files,
  };
  writeFileAtomic(file("marker"), formatJsonFile(marker));
}

/** The pilot folder's marker, checked: `--pilot DIR` must name a folder `pilot init` made. */
export function readPilotMarker(dir: string): { protocol_id: string } {
  const path = join(dir, PILOT_FILES.marker);
  if (!existsSync(path))
    throw usageError(
      "not_a_pilot",
      `${dir} is not a pilot folder (no ${PILOT_FILES.marker}); make one with \`fabench pilot init ${dir}\``,
    );
  return loadWithSchema(path, "pilot", pilotMarkerSchema, "invalid_pilot", PILOT_FORMAT);
}
