/** Routers by spec: `keyword`, `names` and `random:SEED` (weak baselines), `command:PATH`, `http:URL`. */
import { canonicalSha256, usageError } from "../../core/index.js";
import { commandRouter, httpRouter } from "./external.js";
import { keywordRouter, namesRouter, randomRouter } from "./keyword.js";
export { keywordRanking } from "./keyword.js";
export { tokenize } from "./tokenize.js";
export function createRouter(spec, options = {}) {
    const timeout = options.timeoutMs ?? 30_000;
    if (spec === "keyword")
        return keywordRouter();
    if (spec === "names")
        return namesRouter();
    if (/^random:\S+$/.test(spec))
        return randomRouter(spec.slice(7));
    if (spec.startsWith("command:") && spec.length > 8)
        return commandRouter(spec.slice(8), options.args ?? [], timeout, options.path ?? "");
    if (/^http:https?:\/\//.test(spec))
        return httpRouter(spec.slice(5), timeout, options.fetch);
    throw usageError("unknown_router", `--router takes keyword, names, random:SEED, command:PATH or http:URL, not ${spec}`);
}
/** sha256 of everything that determines a router's rankings. */
export function routerConfigSha256(router) {
    return canonicalSha256({ id: router.id, config: router.config });
}
