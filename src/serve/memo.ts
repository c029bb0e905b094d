/**
 * A bounded map from a request's query to what the world makes of it, least recently used dropped
 * first: the router's ranking (rankings.ts) and the task a query names (handlers.ts) are functions of
 * the query alone, and a load repeats queries, so each distinct one is worked out once. Keys are the
 * query itself while it is short — hashing every query cost more per request than the lookup — and
 * its sha256 when long, so a held key never costs more than a bounded number of characters.
 */
import { sha256Hex } from "../core/index.ts";

/** Queries up to this many characters are their own key (2 KB each at most in memory). */
const PLAIN_KEY_CHARACTERS = 1_024;

/** The key of a query: a prefix keeps a short query from ever equalling a long one's hash. */
export function queryKey(query: string): string {
  return query.length <= PLAIN_KEY_CHARACTERS ? `q${query}` : `h${sha256Hex(query)}`;
}

export class QueryMemo<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly maxEntries: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The value kept under `key` (now the most recently used), or undefined. */
  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (hit === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit;
  }

  /** Keeps `value` under `key`, dropping the least recently used entry past the bound. */
  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  /** Forgets `key` only while it still holds `value` (a failed ranking, not its retry). */
  forget(key: string, value: V): void {
    if (this.entries.get(key) === value) this.entries.delete(key);
  }
}
