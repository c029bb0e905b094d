/**
 * Soak: about 2,000 episodes against the fake provider at concurrency 32 with 10 % injected faults.
 * Every episode must end completed or error-coded, none twice, and the wall time must stay within
 * 1.5× of what the provider's latency and the concurrency allow for the requests actually made.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { bundled } from "../helpers/bundled.ts";
import { satisfiedConveyor } from "../helpers/conveyor.ts";
import { startFakeProvider, type Fault } from "../helpers/fake-providers.ts";
import { join, useTempDir } from "../helpers/temp.ts";

// Real providers answer in hundreds of milliseconds; 80 ms keeps the test short and the bound meaningful.
const LATENCY_MS = 80;
const CONCURRENCY = 32;
const FAULTS: Fault[] = [
  { kind: "status", status: 429, retryAfter: "0" },
  { kind: "status", status: 500 },
  { kind: "status", status: 529 },
  { kind: "malformed_json" },
];

describe("soak", () => {
  const temp = useTempDir();

  it("runs 2,016 episodes at concurrency 32 with 10 % faults: none lost, none twice, near the latency bound", { timeout: 120_000 }, async () => {
    const dir = temp();
    const conveyor = await satisfiedConveyor(dir);

    const provider = await startFakeProvider({ tasks: bundled().corpus.tasks, latencyMs: LATENCY_MS, usage: "chars", fault: (n) => (n % 10 === 7 ? (FAULTS[(n / 10) % FAULTS.length | 0] ?? null) : null) });
    process.env["OPENAI_API_KEY"] = "sk-soak";
    const out = join(dir, "soak.jsonl");
    const started = performance.now();
    const result = await runCli([
      "run", "--agent", "openai:gpt-soak", "--base-url", `${provider.url}/v1`, "--conveyor", conveyor, "--out", out,
      "--catalog-sizes", "100", "--conditions", "SR-5,ORACLE", "--trials", "7", "--concurrency", String(CONCURRENCY),
      "--retry-base-delay", "1", "--max-retries", "4", "--json",
    ]);
    const wall = performance.now() - started;
    delete process.env["OPENAI_API_KEY"];
    await provider.close();

    expect(result.code).toBe(0);
    const records = readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { semantic_task_id: string; catalog_size: number; condition: string; trial: number; status: string; error_code: string | null });
    expect(records).toHaveLength(2016);
    expect(new Set(records.map((r) => `${r.semantic_task_id}|${r.catalog_size}|${r.condition}|${r.trial}`)).size).toBe(2016);
    expect(records.every((r) => r.status === "completed" || (r.status === "error" && r.error_code !== null))).toBe(true);
    // The run's request phase, from the first request to the last answer; loading and checking the
    // inputs before it (a few seconds, whatever the provider) is reported beside it.
    const requestPhase = provider.requests.last - provider.requests.first;
    const bound = (provider.requests.count * LATENCY_MS) / CONCURRENCY;
    console.log(`soak: ${records.length} episodes, ${provider.requests.count} requests, request phase ${Math.round(requestPhase)} ms, whole command ${Math.round(wall)} ms, latency bound ${Math.round(bound)} ms, ratio ${(requestPhase / bound).toFixed(2)}`);
    expect(requestPhase).toBeLessThan(1.5 * bound);
  });
});
