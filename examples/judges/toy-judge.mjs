#!/usr/bin/env node
// A toy judge for `fabench judge run --judge command:examples/judges/toy-judge.mjs`: it shows the
// plumbing offline and measures nothing. It reads the command-agent request (protocol v1) from
// stdin, finds the answer below "Answer:" in the user message, and rates it by surface features
// only: an empty or one-word answer is incoherent, a short one incomplete. `--strict` rates one
// point lower whenever the answer holds a blinded name ([tool] or [condition]) or no digit, so two
// toy judges disagree and `fabench judge agreement` has something to show.
let text = "";
for await (const chunk of process.stdin) text += chunk;
const request = JSON.parse(text);
const user = request.messages.find((m) => m.role === "user")?.content ?? "";
const answer = user.slice(user.lastIndexOf("Answer:\n") + "Answer:\n".length).trim();
const words = answer.split(/\s+/).filter(Boolean).length;
const chars = [...answer].length;
let coherence = words === 0 ? 1 : chars < 12 ? 2 : /[.!?。다]$/.test(answer) ? 5 : 4;
let completeness = chars === 0 ? 1 : chars < 20 ? 2 : chars < 60 ? 3 : chars < 140 ? 4 : 5;
if (process.argv.includes("--strict") && (/\[(tool|condition)\]/.test(answer) || !/\d/.test(answer))) {
  coherence = Math.max(1, coherence - 1);
  completeness = Math.max(1, completeness - 1);
}
const rationale = `toy judge: ${words} words, ${chars} characters`;
process.stdout.write(JSON.stringify({ text: JSON.stringify({ coherence, completeness, rationale }) }));
