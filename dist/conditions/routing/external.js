/**
 * External routers. `command:PATH` runs a program (no shell) once per query: one JSON object in on
 * stdin, `{"ranking": [route ids, best first]}` out on stdout. `http:URL` POSTs
 * `{"query", "limit"}` and reads `{"results": [{"tool_id"}]}`, best first (`tool_id` may be a route
 * id or a function name). Routes a router leaves out rank after those it names, in route-id order.
 * Time-outs and malformed answers are errors with codes; nothing is guessed.
 */
import { spawn } from "node:child_process";
import { compareCodePoints, FabenchError } from "../../core/index.js";
export const ROUTER_PROTOCOL_VERSION = 1;
const MAX_OUTPUT_BYTES = 8 * 1024 * 1024;
function routerError(code, message) {
    return new FabenchError({ kind: "input", stage: "router", code, message });
}
/** Named routes first (unknown ones refused or skipped), then every other route in id order. */
export function completeRanking(named, endpoints, unknown, who) {
    const byName = new Map();
    for (const e of endpoints)
        byName.set(e.route_id, e.route_id).set(e.function_name, e.route_id);
    const ranked = [];
    const seen = new Set();
    for (const name of named) {
        const route = byName.get(name);
        if (route === undefined) {
            if (unknown === "refuse")
                throw routerError("router_bad_response", `${who} ranked ${JSON.stringify(name)}, which is not in the catalog`);
            continue;
        }
        if (seen.has(route))
            throw routerError("router_bad_response", `${who} ranked ${route} twice`);
        seen.add(route);
        ranked.push(route);
    }
    const rest = endpoints
        .map((e) => e.route_id)
        .filter((id) => !seen.has(id))
        .sort(compareCodePoints);
    return [...ranked, ...rest];
}
export function commandRouter(path, args, timeoutMs, searchPath) {
    return {
        id: `command:${path}`,
        config: { path, args, timeout_ms: timeoutMs, protocol_version: ROUTER_PROTOCOL_VERSION },
        rank: async (request) => {
            const input = JSON.stringify({
                protocol_version: ROUTER_PROTOCOL_VERSION,
                query: request.query,
                catalog_size: request.catalogSize,
                endpoints: request.endpoints,
            });
            const stdout = await runProgram(path, args, input, timeoutMs, searchPath);
            let answer;
            try {
                answer = JSON.parse(stdout);
            }
            catch {
                throw routerError("router_bad_response", `command router ${path} did not print one JSON object`);
            }
            const ranking = answer?.ranking;
            if (!Array.isArray(ranking) || !ranking.every((r) => typeof r === "string"))
                throw routerError("router_bad_response", `command router ${path} must print {"ranking": [route ids]}`);
            return completeRanking(ranking, request.endpoints, "refuse", `command router ${path}`);
        },
    };
}
function runProgram(path, args, input, timeoutMs, searchPath) {
    return new Promise((resolve, reject) => {
        const child = spawn(path, [...args], { stdio: ["pipe", "pipe", "ignore"], env: { PATH: searchPath } });
        let out = "";
        let size = 0;
        const timer = setTimeout(() => {
            child.kill("SIGKILL");
            reject(routerError("router_timeout", `command router ${path} gave no answer within ${timeoutMs} ms`));
        }, timeoutMs);
        child.stdout.on("data", (chunk) => {
            size += chunk.length;
            if (size > MAX_OUTPUT_BYTES)
                child.kill("SIGKILL");
            else
                out += chunk.toString("utf8");
        });
        child.on("error", (error) => {
            clearTimeout(timer);
            reject(routerError("router_failed", `cannot run command router ${path}: ${error.code ?? error.message}`));
        });
        child.on("close", (code) => {
            clearTimeout(timer);
            if (size > MAX_OUTPUT_BYTES)
                reject(routerError("router_bad_response", `command router ${path} printed more than ${MAX_OUTPUT_BYTES} bytes`));
            else if (code !== 0)
                reject(routerError("router_failed", `command router ${path} exited with code ${code}`));
            else
                resolve(out);
        });
        child.stdin.on("error", () => undefined); // a router that exits without reading is reported by its exit code
        child.stdin.end(input);
    });
}
export function httpRouter(url, timeoutMs, fetchImpl = fetch) {
    return {
        id: `http:${url}`,
        config: { url, timeout_ms: timeoutMs },
        rank: async (request) => {
            let response;
            try {
                response = await fetchImpl(url, {
                    method: "POST",
                    headers: { "content-type": "application/json" },
                    body: JSON.stringify({ query: request.query, limit: request.catalogSize }),
                    signal: AbortSignal.timeout(timeoutMs),
                });
            }
            catch (error) {
                const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
                throw timedOut
                    ? routerError("router_timeout", `http router ${url} gave no answer within ${timeoutMs} ms`)
                    : routerError("router_failed", `cannot reach http router ${url}`);
            }
            if (!response.ok)
                throw routerError("router_failed", `http router ${url} answered HTTP ${response.status}`);
            let body;
            try {
                body = await response.json();
            }
            catch {
                throw routerError("router_bad_response", `http router ${url} did not answer with JSON`);
            }
            const results = body?.results;
            if (!Array.isArray(results) ||
                !results.every((r) => typeof r?.tool_id === "string"))
                throw routerError("router_bad_response", `http router ${url} must answer {"results": [{"tool_id": …}]}`);
            // A service indexed over a larger catalog may name routes this catalog lacks; those are skipped.
            return completeRanking(results.map((r) => r.tool_id), request.endpoints, "skip", `http router ${url}`);
        },
    };
}
