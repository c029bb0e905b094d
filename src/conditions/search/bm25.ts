/**
 * Okapi BM25 over the search fields (fields.ts) of each endpoint, joined into one document.
 * k1 = 1.2, b = 0.75; IDF = ln(1 + (N − n + 0.5)/(n + 0.5)) — the Lucene variant of the
 * Robertson–Spärck Jones weight: it never goes negative, so a term found in more than half the
 * catalog still counts a little instead of pushing its documents down, and "score > 0" means
 * exactly "shares a term with the query". Each distinct query term counts once. A hit needs a
 * score above 0 (a query sharing no term returns no tool, as a real search does). Ties: route id
 * ascending, code-point order. Pure and deterministic.
 */
import { compareCodePoints } from "../../core/index.ts";
import type { Endpoint } from "../catalog/index.ts";
import { searchFields } from "./fields.ts";
import { searchTerms } from "./tokenize.ts";
import type { CatalogSearch, SearchOutcome } from "./types.ts";
import { describedHit } from "./hits.ts";

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

interface Document {
  readonly endpoint: Endpoint;
  readonly tf: ReadonlyMap<string, number>;
  readonly length: number;
}

/** The document of one endpoint: term frequencies and length in terms. */
function documentOf(endpoint: Endpoint): Document {
  const terms = searchFields(endpoint).flatMap((f) => searchTerms(f.text));
  const tf = new Map<string, number>();
  for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
  return { endpoint, tf, length: terms.length };
}

/** The BM25 score of every document for the query's distinct terms. */
export function bm25Scores(
  docs: readonly Document[],
  queryTerms: readonly string[],
): Array<{ doc: Document; score: number }> {
  const n = docs.length;
  const averageLength = docs.reduce((a, d) => a + d.length, 0) / Math.max(n, 1);
  const terms = [...new Set(queryTerms)];
  const idf = new Map(
    terms.map((t) => {
      const df = docs.filter((d) => d.tf.has(t)).length;
      return [t, Math.log(1 + (n - df + 0.5) / (df + 0.5))];
    }),
  );
  return docs.map((doc) => {
    let score = 0;
    for (const t of terms) {
      const f = doc.tf.get(t);
      if (f === undefined) continue;
      const norm = BM25_K1 * (1 - BM25_B + (BM25_B * doc.length) / averageLength);
      score += ((idf.get(t) ?? 0) * f * (BM25_K1 + 1)) / (f + norm);
    }
    return { doc, score };
  });
}

/** BM25 over a catalog's endpoints; the index is built once. */
export function bm25Search(endpoints: readonly Endpoint[]): CatalogSearch {
  const docs = endpoints.map(documentOf);
  return {
    engine: "bm25",
    search(query: string, k: number): SearchOutcome {
      const terms = searchTerms(query);
      if (terms.length === 0)
        return { ok: false, code: "empty_query", message: "the query has no words to search for" };
      const hits = bm25Scores(docs, terms)
        .filter((s) => s.score > 0)
        .sort(
          (a, b) => b.score - a.score || compareCodePoints(a.doc.endpoint.route_id, b.doc.endpoint.route_id),
        )
        .slice(0, Math.max(0, k))
        .map((s) => describedHit(s.doc.endpoint));
      return { ok: true, hits };
    },
  };
}
