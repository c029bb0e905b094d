/**
 * Sessions kept in memory, bounded so a long or hostile load cannot grow them without end, and
 * shared fairly so one client cannot push out another's: a session idle for `ttlMs` is gone; a
 * client (the remote address that opened the session) holding `maxSessionsPerClient` loses its own
 * least recently used one for a new one; and when the store holds `maxSessions`, the least recently
 * used session of the client holding the most goes (the requesting client's own when it is among
 * them). So a client opening thousands of sessions only ever evicts its own once it holds the
 * largest share, and another client's few survive.
 *
 * Maps keep insertion order and every use re-inserts its session, so the least recently used
 * session — of all, or of one client — is always first: expiry and eviction only look at fronts.
 * Loopback clients all share one address: between them this is the plain least-recently-used
 * store it was before. The clock is injected; nothing here reads the time.
 */

export interface SessionLimits {
  /** A session unused this long expires (its executor state with it). */
  readonly ttlMs: number;
  /** At most this many sessions at once; past it, the largest holder's least recently used goes. */
  readonly maxSessions: number;
  /** At most this many sessions opened by one client; past it, that client's least recently used goes. */
  readonly maxSessionsPerClient: number;
}

/**
 * 30 minutes covers a trial whose model takes its full time limit at select and at parameterize;
 * 5,000 sessions (about 1 KB each) is a hundred times the live sessions of 50 concurrent clients,
 * and half of them is still fifty times that for the clients of one address (all of loopback).
 */
export const DEFAULT_SESSION_LIMITS: SessionLimits = {
  ttlMs: 30 * 60_000,
  maxSessions: 5_000,
  maxSessionsPerClient: 2_500,
};

interface Entry<T> {
  readonly value: T;
  readonly client: string;
  lastUsed: number;
}

export class SessionStore<T> {
  private readonly entries = new Map<string, Entry<T>>();
  /** Each client's session ids, least recently used first (the same order as `entries`). */
  private readonly byClient = new Map<string, Map<string, Entry<T>>>();
  private readonly limits: SessionLimits;
  /** Sessions dropped to stay under a limit (not counting expired ones). */
  evicted = 0;

  constructor(
    limits: Omit<SessionLimits, "maxSessionsPerClient"> & Partial<SessionLimits>,
    private readonly now: () => number,
  ) {
    this.limits = { maxSessionsPerClient: limits.maxSessions, ...limits };
  }

  get size(): number {
    return this.entries.size;
  }

  /** Sessions opened by `client` and still held. */
  sizeOf(client: string): number {
    return this.byClient.get(client)?.size ?? 0;
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

  /** The live session with this id, or a new one made by `create` and counted as `client`'s. */
  getOrCreate(id: string, create: () => T, client = ""): T {
    const found = this.get(id);
    if (found !== undefined) return found;
    if (this.sizeOf(client) >= this.limits.maxSessionsPerClient) this.evictOldestOf(client);
    while (this.entries.size >= this.limits.maxSessions && this.entries.size > 0)
      this.evictOldestOf(this.largestHolder(client));
    const value = create();
    const entry: Entry<T> = { value, client, lastUsed: this.now() };
    this.entries.set(id, entry);
    const own = this.byClient.get(client) ?? new Map<string, Entry<T>>();
    own.set(id, entry);
    this.byClient.set(client, own);
    return value;
  }

  /** The client holding the most sessions; `requester` when it holds as many as any other. */
  private largestHolder(requester: string): string {
    let largest = requester;
    let most = this.sizeOf(requester);
    for (const [client, own] of this.byClient)
      if (own.size > most) {
        largest = client;
        most = own.size;
      }
    return largest;
  }

  private evictOldestOf(client: string): void {
    const oldest = this.byClient.get(client)?.keys().next().value;
    if (oldest === undefined) return;
    this.remove(oldest, client);
    this.evicted += 1;
  }

  private remove(id: string, client: string): void {
    this.entries.delete(id);
    const own = this.byClient.get(client);
    own?.delete(id);
    if (own?.size === 0) this.byClient.delete(client);
  }

  private touch(id: string, entry: Entry<T>, now: number): void {
    entry.lastUsed = now;
    this.entries.delete(id);
    this.entries.set(id, entry);
    const own = this.byClient.get(entry.client);
    own?.delete(id);
    own?.set(id, entry);
  }

  /** Drops expired sessions: all of them are at the front. */
  private expire(now: number): void {
    for (const [id, entry] of this.entries) {
      if (now - entry.lastUsed < this.limits.ttlMs) return;
      this.remove(id, entry.client);
    }
  }
}
