/** A router ranks every endpoint of a catalog for a query. Its output is frozen, never replayed live. */
import type { Endpoint } from "../catalog/schema.ts";

export interface RankRequest {
  readonly query: string;
  readonly catalogSize: number;
  readonly endpoints: readonly Endpoint[];
}

export interface Router {
  /** `keyword`, `command:PATH` or an `http://`/`https://` URL. */
  readonly id: string;
  /** Everything that determines its rankings; hashed into the condition manifest. */
  readonly config: unknown;
  /** Route ids of the catalog, best first; every route exactly once. */
  readonly rank: (request: RankRequest) => Promise<string[]>;
}
