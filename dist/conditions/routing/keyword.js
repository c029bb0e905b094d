/**
 * The built-in `keyword` router: BM25 over each endpoint's tool and endpoint names, descriptions,
 * output and parameter names, with multilingual query tokens and a small cross-language lexicon.
 * Deterministic: ties are broken by route id in code-point order.
 */
import { canonicalSha256, caseFold, compareCodePoints } from "../../core/index.js";
import { LEXICON, lexiconExpansion } from "./lexicon.js";
import { tokenize } from "./tokenize.js";
const K1 = 1.2;
const B = 0.75;
/** How much each part of an endpoint counts; names say most about what an endpoint does. */
const FIELD_WEIGHTS = {
    endpoint: 3,
    tool: 2,
    outputs: 2,
    description: 1,
    tool_description: 1,
    parameters: 1,
};
export const KEYWORD_ROUTER_VERSION = 1;
/** The deliberately weak baseline: tool and endpoint names only, no descriptions, no lexicon. */
const NAME_WEIGHTS = { endpoint: 3, tool: 2 };
function endpointTerms(e, weights) {
    const fields = {
        endpoint: e.endpoint,
        tool: e.tool,
        outputs: e.outputs.map((o) => o.name).join(" "),
        description: e.description,
        tool_description: e.tool_description,
        parameters: Object.keys(e.parameters.properties).join(" "),
    };
    const terms = new Map();
    for (const [field, weight] of Object.entries(weights))
        for (const token of tokenize(fields[field]))
            terms.set(token, (terms.get(token) ?? 0) + weight);
    return terms;
}
// The index of a catalog is built once and reused for every query against it.
const indexes = new Map();
function indexOf(endpoints, weights) {
    const byWeights = indexes.get(weights) ?? new WeakMap();
    indexes.set(weights, byWeights);
    let index = byWeights.get(endpoints);
    if (!index) {
        const docs = endpoints.map((e) => {
            const terms = endpointTerms(e, weights);
            return { id: e.route_id, terms, length: [...terms.values()].reduce((a, b) => a + b, 0) };
        });
        index = { docs, averageLength: docs.reduce((a, d) => a + d.length, 0) / Math.max(docs.length, 1) };
        byWeights.set(endpoints, index);
    }
    return index;
}
/** Ranks every endpoint for a query, best first. */
export function keywordRanking(query, endpoints, weights = FIELD_WEIGHTS, useLexicon = true) {
    const { docs, averageLength } = indexOf(endpoints, weights);
    const expansion = useLexicon ? lexiconExpansion(caseFold(query.normalize("NFKC"))) : [];
    const queryTerms = [...new Set([...tokenize(query), ...expansion])];
    const documentFrequency = new Map(queryTerms.map((t) => [t, docs.filter((d) => d.terms.has(t)).length]));
    const scored = docs.map((d) => {
        let score = 0;
        for (const term of queryTerms) {
            const tf = d.terms.get(term);
            if (!tf)
                continue;
            const df = documentFrequency.get(term) ?? 0;
            const idf = Math.log(1 + (docs.length - df + 0.5) / (df + 0.5));
            score += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * d.length) / averageLength));
        }
        return { id: d.id, score };
    });
    scored.sort((a, b) => b.score - a.score || compareCodePoints(a.id, b.id));
    return scored.map((s) => s.id);
}
export function keywordRouter() {
    return {
        id: "keyword",
        config: { version: KEYWORD_ROUTER_VERSION, k1: K1, b: B, field_weights: FIELD_WEIGHTS, lexicon: LEXICON },
        rank: async ({ query, endpoints }) => keywordRanking(query, endpoints),
    };
}
/** `names`: BM25 over tool and endpoint names alone — a deliberately weak router, for sensitivity studies. */
export function namesRouter() {
    return {
        id: "names",
        config: { version: KEYWORD_ROUTER_VERSION, k1: K1, b: B, field_weights: NAME_WEIGHTS, lexicon: null },
        rank: async ({ query, endpoints }) => keywordRanking(query, endpoints, NAME_WEIGHTS, false),
    };
}
/** `random:SEED`: a fixed pseudo-random order per query (sha256 of seed, query and route id) — the floor any router must beat. */
export function randomRouter(seed) {
    return {
        id: `random:${seed}`,
        config: { seed },
        rank: async ({ query, endpoints }) => endpoints
            .map((e) => ({ id: e.route_id, key: canonicalSha256([seed, query, e.route_id]) }))
            .sort((a, b) => compareCodePoints(a.key, b.key) || compareCodePoints(a.id, b.id))
            .map((e) => e.id),
    };
}
