/**
 * Sessions kept in memory, bounded two ways so a long or hostile load cannot grow them without end:
 * a session idle for `ttlMs` is gone, and past `maxSessions` the least recently used one is dropped.
 * A Map keeps insertion order, and every use re-inserts its session, so the least recently used one
 * is always first: expiry and eviction only ever look at the front, in O(1) per session removed.
 * The clock is injected; nothing here reads the time.
 */

export interface SessionLimits {
  /** A session unused this long expires (its executor state with it). */
  readonly ttlMs: number;
  /** At most this many sessions at once; a new one beyond it drops the least recently used. */
  readonly maxSessions: number;
}

/**
 * 30 minutes covers a trial whose model takes its full time limit at select and at parameterize;
 * 5,000 sessions (about 1 KB each) is a hundred times the live sessions of 50 concurrent clients.
 */
export const DEFAULT_SESSION_LIMITS: SessionLimits = { ttlMs: 30 * 60_000, maxSessions: 5_000 };

interface Entry<T> {
  readonly value: T;
  lastUsed: number;
}

export class SessionStore<T> {
  private readonly entries = new Map<string, Entry<T>>();
  /** Sessions dropped to stay under `maxSessions` (not counting expired ones). */
  evicted = 0;

  constructor(
    private readonly limits: SessionLimits,
    private readonly now: () => number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The live session with this id (now counted as used), or undefined. */
  get(id: string): T | undefined {
    const now = this.now();
    this.expire(now);
    const entry = this.entries.get(id);
    if (entry === undefined) return undefined;
    this.touch(id, entry, now);
    return entry.value;
  }

  /** The live session with this id, or a new one made by `create`. */
  getOrCreate(id: string, create: () => T): T {
    const found = this.get(id);
    if (found !== undefined) return found;
    while (this.entries.size >= this.limits.maxSessions) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
      this.evicted += 1;
    }
    const value = create();
    this.entries.set(id, { value, lastUsed: this.now() });
    return value;
  }

  private touch(id: string, entry: Entry<T>, now: number): void {
    entry.lastUsed = now;
    this.entries.delete(id);
    this.entries.set(id, entry);
  }

  /** Drops expired sessions: all of them are at the front. */
  private expire(now: number): void {
    for (const [id, entry] of this.entries) {
      if (now - entry.lastUsed < this.limits.ttlMs) return;
      this.entries.delete(id);
    }
  }
}
