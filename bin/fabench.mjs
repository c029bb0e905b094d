#!/usr/bin/env node
// In a clone (src/ beside bin/) fabench runs its TypeScript sources through tsx, so an edit is live
// without a build; an installed package runs the JavaScript that `npm pack` compiled into dist/.
import { existsSync } from "node:fs";

// Loading the command line takes a moment (longer on a busy machine). Ctrl-C or SIGTERM before
// it is loaded exits at once — nothing has been read or written yet — with the code a shell
// expects (130, 143), instead of the silent default death; the command then installs its own.
const EXIT_BY_SIGNAL = { SIGINT: 130, SIGTERM: 143 };
const whileLoading = (signal) => {
  process.stderr.write(
    "\ninterrupted while starting, before anything was read or written; run the same command again\n",
  );
  process.exit(EXIT_BY_SIGNAL[signal]);
};
for (const signal of Object.keys(EXIT_BY_SIGNAL)) process.on(signal, whileLoading);

const sources = new URL("../src/cli.ts", import.meta.url);
let main;
if (existsSync(sources)) {
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import(sources.href));
} else {
  ({ main } = await import(new URL("../dist/cli.js", import.meta.url).href));
}
for (const signal of Object.keys(EXIT_BY_SIGNAL)) process.off(signal, whileLoading);
process.exitCode = await main(process.argv.slice(2));
