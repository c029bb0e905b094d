/**
 * The API and catalog revisions a run saw, from the `x-qveris-api-version` and
 * `x-qveris-catalog-version` headers of every reply the client kept (a reply that was retried
 * is not counted: it answered nothing). A run that saw one value reports it; none, `unreported`;
 * several, `mixed:a,b` so a comparison across runs notices.
 */

export const API_REVISION_HEADER = "x-qveris-api-version";
export const CATALOG_REVISION_HEADER = "x-qveris-catalog-version";

export interface SeenRevisions {
  /** Distinct values, sorted. */
  readonly api: readonly string[];
  readonly catalog: readonly string[];
}

/** One value → itself; none → `unreported`; several → `mixed:` and the sorted distinct values. */
export function aggregateRevision(values: Iterable<string>): string {
  const distinct = [...new Set(values)].sort();
  if (distinct.length === 0) return "unreported";
  if (distinct.length === 1) return distinct[0] as string;
  return `mixed:${distinct.join(",")}`;
}

/** The two metadata fields of a run record from what was seen (possibly merged across resumed processes). */
export function summarizeRevisions(seen: SeenRevisions): { api_revision: string; catalog_revision: string } {
  return { api_revision: aggregateRevision(seen.api), catalog_revision: aggregateRevision(seen.catalog) };
}

/** Collects the revision headers of kept replies. */
export class RevisionLog {
  private readonly api = new Set<string>();
  private readonly catalog = new Set<string>();

  observe(headers: Headers): void {
    note(headers.get(API_REVISION_HEADER), this.api);
    note(headers.get(CATALOG_REVISION_HEADER), this.catalog);
  }

  seen(): SeenRevisions {
    return { api: [...this.api].sort(), catalog: [...this.catalog].sort() };
  }
}

function note(value: string | null, into: Set<string>): void {
  const trimmed = value?.trim();
  if (trimmed) into.add(trimmed);
}
