/**
 * Soak: 2,016 episodes against the fake provider at concurrency 32 with 10 % injected faults.
 * Every episode must end completed or error-coded, none twice, and every request the provider
 * received must be accounted for: a turn some record kept, or an injected fault. Nothing here
 * depends on how fast the machine is; only counts are checked.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { bundled } from "../helpers/bundled.ts";
import { satisfiedConveyor } from "../helpers/conveyor.ts";
import { startFakeProvider, type Fault } from "../helpers/fake-providers.ts";
import { join, useTempDir } from "../helpers/temp.ts";

// A little latency keeps many requests in flight at once, as with a real provider.
const LATENCY_MS = 80;
const CONCURRENCY = 32;
const MAX_RETRIES = 4;
// Request n fails when n % 10 === 7, with FAULTS[floor(n / 10) % 4]: 10 % of all requests.
const FAULTS: Fault[] = [
  { kind: "status", status: 429, retryAfter: "0" },
  { kind: "status", status: 500 },
  { kind: "status", status: 529 },
  { kind: "malformed_json" },
];
// The codes an episode ends with when one request meets a fault on every attempt.
const FAULT_CODES = [
  "provider_rate_limited",
  "provider_server_error",
  "provider_overloaded",
  "provider_bad_response",
];
// 144 tasks × 1 catalog size × 2 conditions × 7 trials.
const EPISODES = 2016;

type Rec = {
  semantic_task_id: string;
  catalog_size: number;
  condition: string;
  trial: number;
  status: string;
  error_code: string | null;
  turns: unknown[];
};
const read = (path: string): Rec[] =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Rec);

describe("soak", () => {
  const temp = useTempDir();

  it("runs 2,016 episodes at concurrency 32 with 10 % faults: none lost, none twice, every request accounted for", {
    timeout: 300_000,
  }, async () => {
    const dir = temp();
    const conveyor = await satisfiedConveyor(dir);
    expect(bundled().corpus.tasks).toHaveLength(144);

    const provider = await startFakeProvider({
      tasks: bundled().corpus.tasks,
      latencyMs: LATENCY_MS,
      usage: "chars",
      fault: (n) => (n % 10 === 7 ? (FAULTS[((n / 10) % FAULTS.length) | 0] ?? null) : null),
    });
    const out = join(dir, "soak.jsonl");
    const selection = ["--catalog-size", "100", "--condition", "SR-5,ORACLE"];
    let result;
    try {
      result = await runCli(
        [
          "run",
          "--agent",
          "openai:gpt-soak",
          "--base-url",
          `${provider.url}/v1`,
          "--conveyor",
          conveyor,
          "--out",
          out,
          ...selection,
          "--trials",
          "7",
          "--concurrency",
          String(CONCURRENCY),
          "--retry-base-delay",
          "1",
          "--max-retries",
          String(MAX_RETRIES),
          "--json",
        ],
        { env: { OPENAI_API_KEY: "sk-soak" } },
      );
    } finally {
      await provider.close();
    }

    expect(result.code).toBe(0);
    const records = read(out);
    expect(records).toHaveLength(EPISODES);
    expect(
      new Set(records.map((r) => `${r.semantic_task_id}|${r.catalog_size}|${r.condition}|${r.trial}`)).size,
    ).toBe(EPISODES);
    const errored = records.filter((r) => r.status !== "completed");
    for (const r of errored) {
      expect(r.status).toBe("error");
      expect(FAULT_CODES).toContain(r.error_code);
    }
    expect(JSON.parse(result.out)).toMatchObject({
      planned: EPISODES,
      skipped: 0,
      written: EPISODES,
      errors: errored.length,
      stopped: false,
    });

    // Every request is a turn a record kept, or one of the injected faults (the request numbers
    // below the count that are 7 mod 10): no request lost, none sent twice.
    const requests = provider.requests.count;
    const faults = Math.floor((requests + 2) / 10);
    const turns = records.reduce((n, r) => n + r.turns.length, 0);
    expect(turns + faults).toBe(requests);
    // An episode fails only when one of its requests meets a fault on all 1 + 4 attempts.
    expect(errored.length * (1 + MAX_RETRIES)).toBeLessThanOrEqual(faults);
    // Never more requests at once than episodes in flight.
    expect(provider.requests.maxInFlight).toBeLessThanOrEqual(CONCURRENCY);

    // The faults change nothing else: a completed episode takes exactly the turns the reference
    // agent takes on the same task and condition.
    const reference = join(dir, "reference.jsonl");
    expect((await runCli(["run", "--agent", "reference", "--out", reference, ...selection])).code).toBe(0);
    const referenceTurns = new Map(
      read(reference).map((r) => [`${r.semantic_task_id}|${r.condition}`, r.turns.length]),
    );
    expect(referenceTurns.size).toBe(288);
    const completed = records.filter((r) => r.status === "completed");
    expect(completed.map((r) => r.turns.length)).toEqual(
      completed.map((r) => referenceTurns.get(`${r.semantic_task_id}|${r.condition}`)),
    );
  });
});
