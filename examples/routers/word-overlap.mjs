#!/usr/bin/env node
// A tiny fabench command router: ranks the routes whose text shares the most words with the query.
// In on stdin: {"protocol_version": 1, "query", "catalog_size", "endpoints": [...]}.
// Out on stdout: {"ranking": [route ids, best first]}. Anything on stderr is quoted in fabench's errors.
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { protocol_version, query, endpoints } = JSON.parse(input);
if (protocol_version !== 1) {
  console.error(`word-overlap: protocol_version ${protocol_version} is not 1`);
  process.exit(1);
}

// Lower-cased words in any script; identifiers split on _ and . ("unit_convert" → unit, convert).
const words = (text) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
const asked = words(query);
const score = (e) => {
  const text = [e.tool, e.endpoint, e.tool_description, e.description, ...e.outputs.map((o) => o.name)];
  return [...words(text.join(" "))].filter((w) => asked.has(w)).length;
};

const ranking = endpoints
  .map((e) => ({ id: e.route_id, score: score(e) }))
  .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  .map((e) => e.id);
process.stdout.write(`${JSON.stringify({ ranking })}\n`);
