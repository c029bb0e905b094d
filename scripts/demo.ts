/** `npm run demo`: `fabench demo` (see src/cli/demo.ts; docs/demo.md shows what it prints), kept as a script so a clone runs it with the two README commands. */
import { main } from "../src/cli.ts";

process.exitCode = await main(["demo", ...process.argv.slice(2)]);
