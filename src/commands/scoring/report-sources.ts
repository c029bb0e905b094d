/**
 * What `report` shows each episode beside its scores: the corpus's tasks (request, answer form,
 * gold) and the condition manifest's entries (routes per stage, the router's ranks). Each file is
 * taken only if it is the one the summary was scored from, by SHA-256 against the summary's
 * provenance: the corpus by its bytes (`run.corpus_file_sha256`), the manifest by its content hash
 * (`run.condition_manifest_sha256`, recomputed here, never read from the file). A file the user
 * named (or `--pilot` gave) that does not match is refused; the bundled default that does not match
 * is left out with a note. No content check runs: the summary was scored from a checked corpus with
 * that hash, and `report` must stay fast.
 */
import type { Task } from "../../authoring/index.ts";
import {
  bundledPath,
  canonicalSha256,
  inputError,
  parseJsonText,
  readTextFile,
  taskSizeKey,
} from "../../core/index.ts";
import type { EpisodeRecord, EpisodeSources, RouteEntry } from "../../report/index.ts";
import type { Summary } from "../../summary/index.ts";

export interface SourcePaths {
  /** Given with --corpus or by --pilot; absent: the bundled corpus, if it matches. */
  readonly corpus?: string;
  /** Given with --manifest or by --pilot; absent: the bundled manifest, if it matches. */
  readonly manifest?: string;
}

interface Read<T> {
  readonly value?: T;
  readonly note?: string;
}

/** A file's parsed JSON if `hash(text, value)` is the summary's; else a refusal (named) or a note (default). */
function readMatching<T>(
  given: string | undefined,
  fallback: string,
  what: {
    name: string;
    flag: string;
    code: string;
    expected: string;
    hash: (text: string, value: unknown) => string;
  },
  take: (value: unknown) => T,
  summaryPath: string,
): Read<T> {
  const path = given ?? fallback;
  const file = readTextFile(path, "report");
  const value = parseJsonText(file.text, path, "report");
  const actual = what.hash(file.fileSha256, value);
  if (actual === what.expected) return { value: take(value) };
  const message = `its hash ${actual.slice(0, 12)}… is not the ${what.name} ${summaryPath} was scored from (${what.expected.slice(0, 12)}…); give that file with ${what.flag}, or the pilot's folder with --pilot DIR`;
  if (given !== undefined) throw inputError("report", what.code, message, { file: path });
  return {
    note: `The bundled ${what.name} is not the one this summary was scored from, so the episodes show no ${what.name === "corpus" ? "request or gold facts" : "routes or ranks"}: give ${what.flag} FILE (or --pilot DIR).`,
  };
}

/** The manifest's own content hash: its body without the `manifest_sha256` it records. */
function manifestHash(_fileSha256: string, value: unknown): string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return canonicalSha256(value);
  const { manifest_sha256: _recorded, ...body } = value as Record<string, unknown>;
  return canonicalSha256(body);
}

export function readEpisodeSources(
  summary: Summary,
  summaryPath: string,
  paths: SourcePaths,
  records: ReadonlyMap<string, EpisodeRecord> | undefined,
): EpisodeSources {
  // The hash vouches for the shape: a corpus file with this hash passed every content check when it was scored.
  const corpus = readMatching(
    paths.corpus,
    bundledPath("tasks/final-answer-corpus.json"),
    {
      name: "corpus",
      flag: "--corpus",
      code: "corpus_not_scored_in_summary",
      expected: summary.run.corpus_file_sha256,
      hash: (fileSha256) => fileSha256,
    },
    (value) => new Map(((value as { tasks: Task[] }).tasks ?? []).map((t) => [t.semantic_task_id, t])),
    summaryPath,
  );
  const manifest = readMatching(
    paths.manifest,
    bundledPath("manifests/condition-manifest.json"),
    {
      name: "condition manifest",
      flag: "--manifest",
      code: "manifest_not_scored_in_summary",
      expected: summary.run.condition_manifest_sha256,
      hash: manifestHash,
    },
    (value) => {
      const entries = (
        value as { entries: Array<RouteEntry & { semantic_task_id: string; catalog_size: number }> }
      ).entries;
      return new Map(entries.map((e) => [taskSizeKey(e), e as RouteEntry]));
    },
    summaryPath,
  );
  const notes = [corpus.note, manifest.note].filter((n) => n !== undefined);
  return {
    ...(corpus.value ? { tasks: corpus.value } : {}),
    ...(manifest.value ? { routes: manifest.value } : {}),
    ...(records ? { records } : {}),
    ...(notes.length > 0 ? { notes } : {}),
  };
}
