/**
 * Routers by spec: `keyword`, `names` and `random:SEED` (weak baselines), `command:PATH`, and an
 * `http://` or `https://` URL (the older `http:URL` spelling is the same router, same id).
 */
import { canonicalSha256, usageError } from "../../core/index.ts";
import { commandRouter, httpRouter } from "./external.ts";
import { keywordRouter, namesRouter, randomRouter } from "./keyword.ts";
import type { Router } from "./types.ts";

export type { RankRequest, Router } from "./types.ts";
export { keywordRanking } from "./keyword.ts";
export { tokenize } from "./tokenize.ts";

export interface RouterOptions {
  readonly args?: readonly string[];
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
  /** PATH for a command router's subprocess (it gets nothing else of the environment). */
  readonly path?: string;
}

export function createRouter(spec: string, options: RouterOptions = {}): Router {
  const timeout = options.timeoutMs ?? 30_000;
  if (spec === "keyword") return keywordRouter();
  if (spec === "names") return namesRouter();
  if (/^random:\S+$/.test(spec)) return randomRouter(spec.slice(7));
  if (spec.startsWith("command:") && spec.length > 8)
    return commandRouter(spec.slice(8), options.args ?? [], timeout, options.path ?? "");
  if (/^https?:\/\/./.test(spec)) return httpRouter(spec, timeout, options.fetch);
  if (/^http:https?:\/\//.test(spec)) return httpRouter(spec.slice(5), timeout, options.fetch);
  throw usageError(
    "unknown_router",
    `--router takes keyword, names, random:SEED, command:PATH, or an http:// or https:// URL, not ${spec}`,
  );
}

/** sha256 of everything that determines a router's rankings. */
export function routerConfigSha256(router: Router): string {
  return canonicalSha256({ id: router.id, config: router.config });
}
