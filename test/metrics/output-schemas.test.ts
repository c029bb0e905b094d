import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { formatJsonFile } from "../../src/core/index.ts";
import {
  coverageStudyJsonSchema,
  coverageStudySchema,
  powerReportJsonSchema,
} from "../../src/metrics/index.ts";
import { runCli } from "../helpers/cli.ts";

const ajv = () => new Ajv2020.default({ strict: false });

describe("the published schemas of the simulator's and power's --json output (power's is checked in score-cli)", () => {
  it("are the JSON Schemas generated from their zod schemas", () => {
    expect(readFileSync("schemas/coverage-study.schema.json", "utf8")).toBe(
      formatJsonFile(coverageStudyJsonSchema()),
    );
    expect(readFileSync("schemas/power.schema.json", "utf8")).toBe(formatJsonFile(powerReportJsonSchema()));
  });

  it("accept what `simulate coverage --json` writes, and refuse what zod refuses", async () => {
    const run = await runCli(["simulate", "coverage", "--datasets", "3", "--iterations", "100", "--json"]);
    expect(run.code).toBe(0);
    const study = JSON.parse(run.out);
    const validate = ajv().compile(JSON.parse(readFileSync("schemas/coverage-study.schema.json", "utf8")));
    expect(validate(study)).toBe(true);
    expect(coverageStudySchema.safeParse(study).success).toBe(true);
    const edited = structuredClone(study);
    edited.results[0].methods.bootstrap_t.unbounded = 2;
    edited.design.extra = true;
    expect(validate(edited)).toBe(false);
    expect(coverageStudySchema.safeParse(edited).success).toBe(false);
  });
});
