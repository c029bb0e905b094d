/**
 * `fabench serve` from the command line: the key printed once (or taken from the environment and
 * never printed), the request log on stderr, the refusals, and a graceful stop on SIGINT (driven
 * in-process) and SIGTERM (the real binary). Every server listens on 127.0.0.1, on a free port.
 */
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli.ts";
import type { CliIo } from "../../src/commands/shell/io.ts";

interface Started {
  readonly out: () => string;
  readonly err: () => string;
  readonly url: string;
  readonly interrupt: () => void;
  readonly exit: Promise<number>;
}

async function startCli(args: readonly string[], env: Record<string, string> = {}): Promise<Started> {
  let out = "";
  let err = "";
  let handler: (() => void) | null = null;
  const io: CliIo = {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    env: { PATH: process.env["PATH"] ?? "", ...env },
    onInterrupt: (h) => {
      handler = h;
      return () => undefined;
    },
  };
  const exit = main(["serve", "--port", "0", ...args], io);
  let settled: number | null = null;
  void exit.then((code) => {
    settled = code;
  });
  while (!/API key/.test(out) && settled === null) await new Promise((r) => setTimeout(r, 10));
  if (settled !== null) throw new Error(`serve exited ${settled}: ${err}`);
  const url = /(http:\/\/127\.0\.0\.1:\d+\/api\/v1)/.exec(out)?.[1] ?? "";
  return { out: () => out, err: () => err, url, interrupt: () => handler?.(), exit };
}

const post = (url: string, key: string | null, body: unknown) =>
  fetch(`${url}/search`, {
    method: "POST",
    headers: key === null ? {} : { authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });

const SEARCH = { query: "Young's modulus of a titanium alloy", limit: 2, session_id: "s" };

describe("fabench serve", () => {
  it("prints a random key once on stdout, logs requests on stderr without it, and stops on SIGINT", async () => {
    const s = await startCli([]);
    const key = /API key \(new for this run; set FABENCH_SERVE_API_KEY to choose one\): (\S+)/.exec(
      s.out(),
    )?.[1];
    expect(key).toMatch(/^fbk_[A-Za-z0-9_-]{43}$/);
    expect(s.out().split(key ?? "?").length).toBe(2);
    expect((await post(s.url, null, SEARCH)).status).toBe(401);
    const found = await post(s.url, key ?? "", SEARCH);
    expect(found.status).toBe(200);
    expect(found.headers.get("x-qveris-catalog-version")).toMatch(/^87f63e4a/);
    s.interrupt();
    expect(await s.exit).toBe(0);
    expect(s.err()).toMatch(/^POST \/api\/v1\/search 401 [\d.]+ms unauthorized$/m);
    expect(s.err()).toMatch(/^POST \/api\/v1\/search 200 [\d.]+ms$/m);
    expect(s.err()).toContain("fabench serve: stopped");
    expect(s.err()).not.toContain(key);
    expect(s.err()).not.toContain("titanium");
  });

  it("takes the key from FABENCH_SERVE_API_KEY and never prints it; serves the catalog asked for", async () => {
    const key = "chosen-key-for-this-test";
    const s = await startCli(["--catalog-size", "250"], { FABENCH_SERVE_API_KEY: key });
    expect(s.out()).toContain("API key: from FABENCH_SERVE_API_KEY");
    expect(s.out() + s.err()).not.toContain(key);
    const found = await post(s.url, key, SEARCH);
    expect([found.status, found.headers.get("x-qveris-catalog-version")]).toEqual([
      200,
      expect.stringMatching(/^82d8ca59/),
    ]);
    s.interrupt();
    expect(await s.exit).toBe(0);
  });

  it("refuses an unusable key, a taken port and a catalog that is not there (exit 2)", async () => {
    const errs: string[] = [];
    const io = (env: Record<string, string>): CliIo => ({
      out: () => undefined,
      err: (t) => void errs.push(t),
      env,
    });
    expect(await main(["serve", "--port", "0"], io({ FABENCH_SERVE_API_KEY: "two words" }))).toBe(2);
    expect(errs.join("")).toContain("bad_api_key");
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, "127.0.0.1", r));
    const port = (taken.address() as { port: number }).port;
    expect(await main(["serve", "--port", String(port)], io({ FABENCH_SERVE_API_KEY: "k" }))).toBe(2);
    expect(errs.join("")).toContain("cannot_listen");
    taken.close();
    expect(await main(["serve", "--port", "0", "--catalog-size", "7"], io({}))).toBe(2);
  });

  it("warns before serving beyond loopback", async () => {
    const errs: string[] = [];
    // 192.0.2.1 (TEST-NET-1) is never this machine's address: binding fails, after the warning.
    const code = await main(["serve", "--port", "0", "--host", "192.0.2.1"], {
      out: () => undefined,
      err: (t) => void errs.push(t),
      env: {},
    });
    expect(code).toBe(2);
    expect(errs.join("")).toMatch(/^warning: --host 192\.0\.2\.1 serves beyond this machine/m);
    expect(errs.join("")).toContain("cannot_listen");
  });

  it("finishes and exits 0 on SIGTERM (the real binary)", { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, ["bin/fabench.mjs", "serve", "--port", "0"], {
      env: { PATH: process.env["PATH"] ?? "", FABENCH_SERVE_API_KEY: "term-key" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
    while (!/API key/.test(out) && child.exitCode === null) await new Promise((r) => setTimeout(r, 20));
    expect(child.exitCode, err).toBeNull();
    const url = /(http:\/\/127\.0\.0\.1:\d+\/api\/v1)/.exec(out)?.[1] ?? "";
    expect((await post(url, "term-key", SEARCH)).status).toBe(200);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(err).toContain("fabench serve: stopped");
  });
});
