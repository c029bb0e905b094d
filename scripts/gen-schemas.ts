/**
 * Writes the JSON Schemas users and providers see, generated from the zod schemas:
 *   schemas/task.schema.json, schemas/envelope.schema.json,
 *   schemas/coverage-study.schema.json, schemas/power.schema.json, schemas/summary.schema.json,
 *   schemas/discover-call-task.schema.json, schemas/compare.schema.json
 *
 *   npx tsx scripts/gen-schemas.ts [--check]
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { taskJsonSchema } from "../src/authoring/index.ts";
import { compareJsonSchema } from "../src/compare/index.ts";
import { formatJsonFile, writeFileAtomic } from "../src/core/index.ts";
import { discoverCallTaskJsonSchema } from "../src/discover-call/index.ts";
import { envelopeJsonSchema } from "../src/envelope/index.ts";
import { coverageStudyJsonSchema, powerReportJsonSchema } from "../src/metrics/index.ts";
import { summaryJsonSchema } from "../src/summary/index.ts";

export const SCHEMAS: Record<string, () => Record<string, unknown>> = {
  "schemas/task.schema.json": taskJsonSchema,
  "schemas/envelope.schema.json": envelopeJsonSchema,
  "schemas/coverage-study.schema.json": coverageStudyJsonSchema,
  "schemas/power.schema.json": powerReportJsonSchema,
  "schemas/summary.schema.json": summaryJsonSchema,
  "schemas/discover-call-task.schema.json": discoverCallTaskJsonSchema,
  "schemas/compare.schema.json": compareJsonSchema,
};

const root = new URL("../", import.meta.url);
let stale = 0;
for (const [relative, build] of Object.entries(SCHEMAS)) {
  const path = fileURLToPath(new URL(relative, root));
  const text = formatJsonFile(build());
  if (process.argv.includes("--check")) {
    let current = "";
    try {
      current = readFileSync(path, "utf8");
    } catch {
      /* missing counts as stale */
    }
    if (current !== text) {
      stale++;
      process.stderr.write(
        `${relative}: schema_stale: differs from the zod schema; run scripts/gen-schemas.ts\n`,
      );
    }
  } else {
    writeFileAtomic(path, text);
    process.stdout.write(`wrote ${relative}\n`);
  }
}
process.exitCode = stale === 0 ? 0 : 1;
