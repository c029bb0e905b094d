/**
 * Arguments and environment come before the world: a missing API key, a malformed base URL or
 * router spec is reported while the corpus it was given does not even exist — the error that
 * would come from loading it never appears, so nothing was loaded first.
 */
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { join, useTempDir } from "../helpers/temp.ts";

const NO_CORPUS = "/nonexistent/fabench-early/corpus.json";

describe("checks before the world loads", () => {
  const temp = useTempDir();

  it("run: a missing API key, before the corpus is read", async () => {
    const r = await runCli(
      ["run", "--agent", "anthropic:some-model", "--corpus", NO_CORPUS, "--out", join(temp(), "r.jsonl")],
      { env: {} },
    );
    expect(r.code).toBe(2);
    expect(r.err).toContain("missing_api_key: set ANTHROPIC_API_KEY");
    expect(r.err).not.toContain(NO_CORPUS);
  });

  it("run: a key that would travel over plain HTTP, and a base URL that is not one", async () => {
    const out = join(temp(), "r.jsonl");
    const insecure = await runCli(
      [
        "run",
        "--agent",
        "openai:m",
        "--base-url",
        "http://example.com/v1",
        "--corpus",
        NO_CORPUS,
        "--out",
        out,
      ],
      { env: { OPENAI_API_KEY: "sk-test-value" } },
    );
    expect(insecure.code).toBe(2);
    expect(insecure.err).toContain("insecure_base_url");
    expect(insecure.err).not.toContain("sk-test-value");
    const bad = await runCli(
      ["run", "--agent", "openai:m", "--base-url", "ftp://x", "--corpus", NO_CORPUS, "--out", out],
      { env: {} },
    );
    expect(bad.err).toContain("bad_base_url");
    expect(bad.err).not.toContain(NO_CORPUS);
  });

  it("run --estimate needs no key (it sends nothing)", async () => {
    const r = await runCli(["run", "--agent", "anthropic:m", "--estimate", "--corpus", NO_CORPUS], {
      env: {},
    });
    expect(r.err).not.toContain("missing_api_key");
    expect(r.err).toContain(NO_CORPUS);
  });

  it("judge run: a missing API key, before the run files or the corpus are read", async () => {
    const r = await runCli(
      [
        "judge",
        "run",
        "--judge",
        "openai:m",
        "--corpus",
        NO_CORPUS,
        "/nonexistent/run.jsonl",
        "--out",
        join(temp(), "j.jsonl"),
      ],
      { env: {} },
    );
    expect(r.code).toBe(2);
    expect(r.err).toContain("missing_api_key: set OPENAI_API_KEY");
    expect(r.err).not.toContain("/nonexistent/");
  });

  it("conditions freeze and serve: a malformed --router, before the corpus is read", async () => {
    const freeze = await runCli(
      ["conditions", "freeze", "--router", "bogus:x", "--corpus", NO_CORPUS, "--out", join(temp(), "m.json")],
      { env: {} },
    );
    expect(freeze.code).toBe(2);
    expect(freeze.err).toContain("unknown_router");
    expect(freeze.err).not.toContain(NO_CORPUS);
    const serve = await runCli(["serve", "--router", "bogus:x", "--corpus", NO_CORPUS], { env: {} });
    expect(serve.code).toBe(2);
    expect(serve.err).toContain("unknown_router");
    expect(serve.err).not.toContain(NO_CORPUS);
  });
});
