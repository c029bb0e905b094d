import { describe, expect, it } from "vitest";
import { knownKeyValues, REDACTED, redactSecrets } from "../../src/core/secrets.ts";

describe("redacting key values from quoted child output", () => {
  const env = {
    ANTHROPIC_API_KEY: "sk-ant-aaaaaaaaaaaa",
    OPENAI_API_KEY: "sk-openai-bbbbbbbb",
    FABENCH_SERVE_API_KEY: "serve-cccc",
    QVERIS_API_KEY: "sk-openai-bbbbbbbb-longer", // contains another key: hidden whole
    FABENCH_JUDGE_API_KEY: "judge-dddd",
    MY_SERVICE_TOKEN: "token-eeeeeeee",
    SHORT_TOKEN: "abc", // too short to be a key: a word
    HOME: "/home/someone-long-path", // not a key
  };

  it("knows fabench's key variables and any *_API_KEY / *_TOKEN of 8 characters or more", () => {
    expect(knownKeyValues(env).sort()).toEqual(
      [
        "sk-ant-aaaaaaaaaaaa",
        "sk-openai-bbbbbbbb",
        "serve-cccc",
        "sk-openai-bbbbbbbb-longer",
        "judge-dddd",
        "token-eeeeeeee",
      ].sort(),
    );
  });

  it("replaces each value, longest first, and leaves other text alone", () => {
    const text =
      "a sk-openai-bbbbbbbb-longer b sk-ant-aaaaaaaaaaaa c token-eeeeeeee abc /home/someone-long-path";
    expect(redactSecrets(text, env)).toBe(
      `a ${REDACTED} b ${REDACTED} c ${REDACTED} abc /home/someone-long-path`,
    );
  });
});
