#!/usr/bin/env node
// In a clone (src/ beside bin/) fabench runs its TypeScript sources through tsx, so an edit is live
// without a build; an installed package runs the JavaScript that `npm pack` compiled into dist/.
import { existsSync } from "node:fs";

const sources = new URL("../src/cli.ts", import.meta.url);
let main;
if (existsSync(sources)) {
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import(sources.href));
} else {
  ({ main } = await import(new URL("../dist/cli.js", import.meta.url).href));
}
process.exitCode = await main(process.argv.slice(2));
