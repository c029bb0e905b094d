/**
 * Validates an Inspect AI eval log (JSON) against a log schema file with ajv, and prints every
 * problem (at most 50) with its JSON pointer: `npx tsx scripts/check-inspect-log.ts SCHEMA LOG`.
 * Inspect's schema is not in this repository (it is Inspect's); take `log-schema.json` from the
 * Inspect release whose viewer you open the log in (docs/exporting.md says which one was checked).
 * Exit 0 valid, 1 invalid, 2 a file could not be read.
 */
import { readFileSync } from "node:fs";
import Ajv2020Module from "ajv/dist/2020.js";

// ajv's CommonJS module: its class is the `default` member (as src/authoring/parameter-schema.ts reads ajv).
const Ajv2020 = Ajv2020Module.default;

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    process.stderr.write(`${path}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
}

export function checkInspectLog(schema: object, log: unknown): string[] {
  // Inspect's schema (pydantic's) uses keywords and formats ajv's strict mode does not know.
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
  const validate = ajv.compile(schema);
  if (validate(log)) return [];
  return (validate.errors ?? []).map(
    (e) => `${e.instancePath || "/"}: ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`,
  );
}

function main(argv: readonly string[]): number {
  const [schemaPath, logPath] = argv;
  if (schemaPath === undefined || logPath === undefined) {
    process.stderr.write("usage: tsx scripts/check-inspect-log.ts SCHEMA LOG\n");
    return 2;
  }
  const problems = checkInspectLog(readJson(schemaPath) as object, readJson(logPath));
  for (const problem of problems.slice(0, 50)) process.stdout.write(`${logPath}${problem}\n`);
  if (problems.length > 50) process.stdout.write(`… and ${problems.length - 50} more\n`);
  process.stdout.write(
    problems.length === 0 ? `${logPath}: valid against ${schemaPath}\n` : `${problems.length} problem(s)\n`,
  );
  return problems.length === 0 ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main(process.argv.slice(2));
