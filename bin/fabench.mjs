#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx, so a clone works after `npm ci` with no build.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli.ts");
process.exitCode = await main(process.argv.slice(2));
