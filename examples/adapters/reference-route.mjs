#!/usr/bin/env node
// A discover-call adapter (protocol v1) for the reference lane: it answers from the task set's
// `reference.candidates`, so a trial fails only where the API does — a candidate the discovery
// did not return, a tool inspect does not return, a call the tool refuses.
// Usage: --adapter ./examples/adapters/reference-route.mjs --adapter-arg TASKS.jsonl
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

const fail = (code) => {
  process.stderr.write(`QVERIS_BENCHMARK_ADAPTER_ERROR=${code}\n`);
  process.exit(1);
};
const bytes = readFileSync(process.argv[2] ?? fail("missing_reference"));
let text = "";
for await (const chunk of process.stdin) text += chunk;
const request = JSON.parse(text);
if (createHash("sha256").update(bytes).digest("hex") !== request.task_set_sha256) fail("task_set_mismatch");
const task = bytes
  .toString("utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line))
  .find((t) => t.id === request.input.task_id);
const candidates = task?.reference?.candidates ?? fail("missing_reference");
if (request.stage === "select") {
  const found = new Set(request.input.discovery.results.map((r) => r.tool_id));
  // The first candidate discovery returned; else the first, which the runner records as ungrounded.
  const pick = candidates.find((c) => found.has(c.tool_id)) ?? candidates[0] ?? fail("missing_reference_candidate");
  process.stdout.write(JSON.stringify({ tool_id: pick.tool_id }));
} else if (request.stage === "parameterize") {
  const pick = candidates.find((c) => c.tool_id === request.input.selected_tool.tool_id);
  process.stdout.write(JSON.stringify({ parameters: (pick ?? fail("missing_reference_candidate")).parameters }));
} else fail("unsupported_stage");
