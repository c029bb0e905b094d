/**
 * Debugging a command router: its stderr in every error, the task and catalog it was ranking, a
 * hint when it cannot run at all, progress on stderr, and bounded concurrency that leaves the
 * manifest byte for byte the same. (The protocol itself is tested in routers.test.ts.)
 */
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ByteTail, STDERR_TAIL_BYTES } from "../../src/conditions/routing/external.ts";
import { createRouter, freezeConditions, type Router } from "../../src/conditions/routing/index.ts";
import { canonicalSha256, FabenchError, formatJsonFile, mapConcurrent } from "../../src/core/index.ts";
import { bundled } from "../helpers/bundled.ts";
import { runCli } from "../helpers/cli.ts";
import { join, useTempDir } from "../helpers/temp.ts";

const { protocol, plan, catalogs, corpus } = bundled();
const PATH = process.env["PATH"] ?? "";
/** A few tasks that are not corrective, so any ranking freezes. */
const TASKS = corpus.tasks.slice(0, 5);
const FIRST = TASKS[0]!.semantic_task_id;

const freeze = (router: Router, extra: { concurrency?: number } = {}) => {
  const progress: Array<[number, number]> = [];
  const result = freezeConditions({
    protocol,
    protocolSha256: canonicalSha256(protocol),
    plan,
    tasks: TASKS,
    tasksSha256: corpus.tasks_sha256,
    catalogs,
    router,
    ...(extra.concurrency === undefined ? {} : { concurrency: extra.concurrency }),
    onProgress: (done, total) => progress.push([done, total]),
  });
  return { result, progress };
};

async function failure(promise: Promise<unknown>): Promise<FabenchError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(FabenchError);
    return error as FabenchError;
  }
  throw new Error("expected a rejection");
}

describe("a command router's errors", () => {
  const temp = useTempDir();
  const script = (body: string, name = "router.mjs", shebang = true) => {
    const path = join(temp(), name);
    writeFileSync(path, `${shebang ? "#!/usr/bin/env node\n" : ""}${body}\n`);
    chmodSync(path, 0o755);
    return path;
  };
  const command = (path: string, timeoutMs?: number) =>
    createRouter(`command:${path}`, { path: PATH, ...(timeoutMs ? { timeoutMs } : {}) });

  it("quote its stderr and name the task and catalog size being ranked", async () => {
    const path = script(`console.error("router exploded: no index for " + "materials"); process.exit(1)`);
    const error = await failure(freeze(command(path)).result);
    expect(error.code).toBe("router_failed");
    expect(error.message).toBe(
      `${FIRST} @ 100: command router ${path} exited with code 1; its stderr ended with:\n  router exploded: no index for materials`,
    );
    expect(error.problems.map((p) => p.message)).toEqual([error.message]);
  });

  it("keep only the last 2048 bytes of stderr", async () => {
    // START, then 10 KB of x, then END, in several writes; no newline, so the tail is exact.
    const path = script(
      `process.stderr.write("START"); for (let i = 0; i < 10; i++) process.stderr.write("x".repeat(1024)); process.stderr.write("END", () => process.exit(1));`,
    );
    const error = await failure(command(path).rank({ query: "q", catalogSize: 100, endpoints: [] }));
    expect(error.code).toBe("router_failed");
    expect(error.message).not.toContain("START");
    expect(error.message.endsWith(`  …${"x".repeat(STDERR_TAIL_BYTES - 3)}END`)).toBe(true);
    expect(error.message).not.toContain("x".repeat(STDERR_TAIL_BYTES - 2));
  });

  it("quote stderr for a time-out and a bad answer too", async () => {
    // A shell script (it starts at once) that says something, then never answers.
    const slow = join(temp(), "slow.sh");
    writeFileSync(slow, `#!/bin/sh\necho "loading the index" >&2\nexec sleep 60\n`);
    chmodSync(slow, 0o755);
    const timeout = await failure(freeze(command(slow, 2000)).result);
    expect(timeout.code).toBe("router_timeout");
    expect(timeout.message).toContain(`${FIRST} @ 100: command router ${slow} gave no answer within 2000 ms`);
    expect(timeout.message).toContain("its stderr ended with:\n  loading the index");

    const chatty = script(`console.error("debug: ranking"); console.log("ranked!")`, "chatty.mjs");
    const bad = await failure(freeze(command(chatty)).result);
    expect(bad.code).toBe("router_bad_response");
    expect(bad.message).toBe(
      `${FIRST} @ 100: command router ${chatty} did not print one JSON object (it printed "ranked!\\n"); its stderr ended with:\n  debug: ranking`,
    );

    const unknown = script(
      `console.error("from cache"); console.log(JSON.stringify({ ranking: ["no.such_route"] }))`,
      "unknown.mjs",
    );
    const refused = await failure(freeze(command(unknown)).result);
    expect(refused.code).toBe("router_bad_response");
    expect(refused.message).toContain('ranked "no.such_route", which is not in the catalog');
    expect(refused.message).toContain("its stderr ended with:\n  from cache");
  });

  it("hint at a missing #! line or a program that cannot be run", async () => {
    const noShebang = script("process.exit(0)", "no-shebang.mjs", false);
    const error = await failure(freeze(command(noShebang)).result);
    expect(error.code).toBe("router_failed");
    expect(error.message).toContain(`${FIRST} @ 100: `);
    expect(error.message).toContain("hint: it does not start with a #! line");

    const notExecutable = script("process.exit(0)", "plain.mjs");
    chmodSync(notExecutable, 0o644);
    const refused = await failure(freeze(command(notExecutable)).result);
    expect(refused.message).toContain("EACCES");
    expect(refused.message).toContain("is it executable (chmod +x) and does it start with a #! line");

    const noInterpreter = join(temp(), "no-interpreter.mjs");
    writeFileSync(noInterpreter, "#!/usr/bin/env fabench-no-such-interpreter\n");
    chmodSync(noInterpreter, 0o755);
    const missing = await failure(freeze(command(noInterpreter)).result);
    expect(missing.message).toContain("exited with code 127 (hint: exit 127 means a program was not found");
  });

  it("name the task and catalog size for an http router as well", async () => {
    const fetchImpl = (async () => new Response("down", { status: 503 })) as typeof fetch;
    const router = createRouter("http:http://router.invalid/rank", { fetch: fetchImpl });
    const error = await failure(freeze(router).result);
    expect(error.code).toBe("router_failed");
    expect(error.message).toBe(`${FIRST} @ 100: http router http://router.invalid/rank answered HTTP 503`);
  });
});

describe("ByteTail", () => {
  it("keeps the last bytes, skips a character the limit cut, and marks the cut", () => {
    const tail = new ByteTail(8);
    tail.push(Buffer.from("ab"));
    expect(tail.text()).toBe("ab");
    tail.push(Buffer.from("cdefgh"));
    expect(tail.text()).toBe("abcdefgh");
    tail.push(Buffer.from("é1234567")); // é is two bytes: the tail starts inside it
    expect(tail.text()).toBe("…1234567");
  });
});

describe("mapConcurrent", () => {
  /** A call that settles when the test says so. */
  const deferred = () => {
    let settle!: (ok: boolean) => void;
    const promise = new Promise<boolean>((r) => {
      settle = r;
    });
    return { promise, settle };
  };
  const flush = () => new Promise((r) => setImmediate(r));

  it("keeps input order and never has more than the limit in flight", async () => {
    for (const limit of [1, 3]) {
      const calls = Array.from({ length: 7 }, deferred);
      let inFlight = 0;
      let most = 0;
      const started: number[] = [];
      const run = mapConcurrent(calls, limit, async (call, i) => {
        started.push(i);
        inFlight += 1;
        most = Math.max(most, inFlight);
        await call.promise;
        inFlight -= 1;
        return i * 10;
      });
      // Settle the started calls latest first, round after round, until every call has run.
      for (let round = 0; round < calls.length; round++) {
        await flush();
        for (const j of [...started].reverse()) calls[j]!.settle(true);
      }
      expect(await run).toEqual([0, 10, 20, 30, 40, 50, 60]);
      expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
      expect(most).toBe(Math.min(limit, calls.length));
    }
  });

  it("stops starting calls after a failure and throws the earliest item's error", async () => {
    const calls = Array.from({ length: 6 }, deferred);
    const started: number[] = [];
    const run = mapConcurrent(calls, 3, async (call, i) => {
      started.push(i);
      if (!(await call.promise)) throw new Error(`item ${i}`);
      return i;
    });
    await flush();
    expect(started).toEqual([0, 1, 2]);
    calls[2]!.settle(false); // the later item fails first…
    await flush();
    calls[1]!.settle(false); // …then an earlier one
    calls[0]!.settle(true);
    await expect(run).rejects.toThrow("item 1");
    expect(started).toEqual([0, 1, 2]);
  });

  it("refuses a limit that is not a positive whole number", async () => {
    await expect(mapConcurrent([1], 0, async (x) => x)).rejects.toThrow(RangeError);
  });
});

describe("freezing with a command router", () => {
  const temp = useTempDir();
  /**
   * A router that records how many copies of itself run at once: each one makes a file in
   * running/, counts the files (never more than the copies alive) in seen/, and removes its file
   * before it answers. Its answer depends on the query, and it takes a query-dependent while so the
   * calls finish out of order.
   */
  const COUNTING = `#!/usr/bin/env node
import { readdirSync, rmSync, writeFileSync } from "node:fs";
const dir = process.argv[2];
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { query, endpoints } = JSON.parse(input);
const mine = \`\${dir}/running/\${process.pid}\`;
writeFileSync(mine, "");
writeFileSync(\`\${dir}/seen/\${readdirSync(\`\${dir}/running\`).length}\`, "");
await new Promise((r) => setTimeout(r, (query.length % 4) * 15));
rmSync(mine);
const ids = endpoints.map((e) => e.route_id);
const shift = query.length % ids.length;
console.log(JSON.stringify({ ranking: [...ids.slice(shift), ...ids.slice(0, shift)] }));
`;
  const setUp = () => {
    const dir = temp();
    const path = join(dir, "counting.mjs");
    writeFileSync(path, COUNTING);
    chmodSync(path, 0o755);
    return { dir, path };
  };
  const mostAtOnce = (dir: string) => Math.max(...readdirSync(join(dir, "seen")).map(Number));

  it("never runs more copies than its concurrency, and the manifest does not depend on it", async () => {
    const { dir, path } = setUp();
    const manifests: string[] = [];
    for (const concurrency of [1, 4]) {
      for (const sub of ["running", "seen"]) {
        rmSync(join(dir, sub), { recursive: true, force: true });
        mkdirSync(join(dir, sub));
      }
      const router = createRouter(`command:${path}`, { args: [dir], path: PATH });
      const { result, progress } = freeze(router, { concurrency });
      const frozen = await result;
      if (!frozen.ok) throw new Error(JSON.stringify(frozen.problems));
      manifests.push(formatJsonFile(frozen.value));
      const most = mostAtOnce(dir);
      expect(most).toBeGreaterThanOrEqual(1);
      expect(most).toBeLessThanOrEqual(concurrency);
      expect(readdirSync(join(dir, "running"))).toEqual([]);
      const total = TASKS.length * catalogs.length;
      expect(progress).toEqual(Array.from({ length: total }, (_, i) => [i + 1, total]));
      // Entries in task order, then catalog size ascending.
      expect(frozen.value.entries.map((e) => `${e.semantic_task_id} @ ${e.catalog_size}`)).toEqual(
        TASKS.flatMap((t) =>
          [...catalogs].sort((a, b) => a.size - b.size).map((c) => `${t.semantic_task_id} @ ${c.size}`),
        ),
      );
    }
    expect(manifests[1]).toBe(manifests[0]);
  });

  it("reports the earliest task's error whatever order the calls fail in", async () => {
    // Answers for the first task only; for the others it fails, later tasks sooner. The second
    // task's error is the one reported, at any concurrency.
    const dir = temp();
    const queries = join(dir, "queries.json");
    writeFileSync(queries, JSON.stringify(TASKS.map((t) => t.query)));
    const path = join(dir, "late-fail.mjs");
    writeFileSync(
      path,
      `#!/usr/bin/env node
import { readFileSync } from "node:fs";
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { query, endpoints, catalog_size } = JSON.parse(input);
const order = JSON.parse(readFileSync(process.argv[2], "utf8")).indexOf(query);
if (order === 0) console.log(JSON.stringify({ ranking: endpoints.map((e) => e.route_id) }));
else setTimeout(() => { console.error(\`cannot rank task \${order} @ \${catalog_size}\`); process.exit(1); }, (10 - order) * 10);
`,
    );
    chmodSync(path, 0o755);
    const router = createRouter(`command:${path}`, { args: [queries], path: PATH });
    for (const concurrency of [1, 4]) {
      const error = await failure(freeze(router, { concurrency }).result);
      expect(error.message).toContain(`${TASKS[1]!.semantic_task_id} @ 100: command router`);
      expect(error.message).toContain("cannot rank task 1 @ 100");
    }
  });
});

describe("`fabench conditions freeze`", () => {
  const temp = useTempDir();

  it("prints progress on stderr and keeps stdout one JSON object", async () => {
    const out = join(temp(), "keyword.manifest.json");
    const run = await runCli(["conditions", "freeze", "--router-concurrency", "3", "--out", out, "--json"]);
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.out) as { ok: boolean; entries: number; written: boolean };
    expect(summary).toMatchObject({ ok: true, written: true, entries: 288 });
    expect(run.err).toMatch(/^conditions freeze: 288\/288 /m);
    // Concurrency does not change a byte of the bundled manifest.
    expect(readFileSync(out, "utf8")).toBe(readFileSync("manifests/condition-manifest.json", "utf8"));
  });

  it("keeps --router-concurrency router processes at most, and writes the same bytes at 1 and 4", {
    timeout: 180_000,
  }, async () => {
    // A shell router (quick to start, so all 288 calls stay fast): it counts the copies of itself
    // alive, as the counting router above does, and names no route (they rank in route-id order).
    const dir = temp();
    const path = join(dir, "count.sh");
    writeFileSync(
      path,
      `#!/bin/sh
cat > /dev/null
: > "$1/running/$$"
n=$(ls "$1/running" | wc -l)
: > "$1/seen/$((n))"
rm "$1/running/$$"
echo '{"ranking": []}'
`,
    );
    chmodSync(path, 0o755);
    const written: string[] = [];
    for (const concurrency of ["1", "4"]) {
      for (const sub of ["running", "seen"]) {
        rmSync(join(dir, sub), { recursive: true, force: true });
        mkdirSync(join(dir, sub));
      }
      const out = join(dir, `c${concurrency}.manifest.json`);
      const run = await runCli(
        [
          "conditions",
          "freeze",
          "--router",
          `command:${path}`,
          "--router-arg",
          dir,
          "--router-concurrency",
          concurrency,
          "--out",
          out,
          "--json",
        ],
        { env: { PATH } },
      );
      expect(run.code, run.err).toBe(0);
      expect(JSON.parse(run.out)).toMatchObject({ ok: true, entries: 288 });
      const most = Math.max(...readdirSync(join(dir, "seen")).map(Number));
      expect(most).toBeGreaterThanOrEqual(1);
      expect(most).toBeLessThanOrEqual(Number(concurrency));
      written.push(readFileSync(out, "utf8"));
    }
    expect(written[1]).toBe(written[0]);
  });

  it("ships the example router docs/conditions.md shows, and it freezes", async () => {
    const page = readFileSync("docs/conditions.md", "utf8");
    const section = page.slice(page.indexOf("## Benchmark your own router"));
    const shown = section.slice(
      section.indexOf("```js\n") + 6,
      section.indexOf("```\n", section.indexOf("```js\n") + 6),
    );
    expect(shown).toBe(readFileSync("examples/routers/word-overlap.mjs", "utf8"));
    expect(section).toContain("--router command:./examples/routers/word-overlap.mjs");
    // The README's worked example freezes the same program.
    expect(readFileSync("README.md", "utf8")).toContain(
      "--router command:./examples/routers/word-overlap.mjs",
    );
    expect(statSync("examples/routers/word-overlap.mjs").mode & 0o111).toBe(0o111);
    const frozen = await freeze(createRouter("command:./examples/routers/word-overlap.mjs", { path: PATH }), {
      concurrency: 4,
    }).result;
    expect(frozen.ok).toBe(true);
  });

  it("refuses a --router-concurrency that is not a positive whole number", async () => {
    const run = await runCli(["conditions", "freeze", "--router-concurrency", "0", "--check"]);
    expect(run.code).toBe(2);
    expect(run.err).toContain("--router-concurrency takes a positive whole number");
  });
});
