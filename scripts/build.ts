/**
 * `npm run build`: the installed package's JavaScript. The sources are bundled with rolldown into a
 * few ES modules under dist/ (dist/cli.js and the chunks the commands load lazily), so an installed
 * fabench starts by reading a handful of files instead of resolving and compiling hundreds; the
 * dependencies stay packages of their own (node_modules), loaded from there as before, except zod
 * (below). The type
 * check is `npm run typecheck`; the bundle itself is plain syntax stripping.
 */
import { rmSync } from "node:fs";
import { builtinModules } from "node:module";
import { rolldown } from "rolldown";

const out = process.argv[2] ?? "dist";
// zod is bundled in (every command validates with it; as a package it is some 60 of its own
// modules for node to resolve and compile at each start); every other dependency stays a package.
const BUNDLED = new Set(["zod"]);
const external = (id: string) =>
  id.startsWith("node:") ||
  builtinModules.includes(id) ||
  (/^[@a-z]/i.test(id) && !BUNDLED.has(id.split("/")[0] as string));

rmSync(out, { recursive: true, force: true });
const bundle = await rolldown({ input: { cli: "src/cli.ts" }, platform: "node", external });
await bundle.write({
  dir: out,
  format: "esm",
  entryFileNames: "[name].js",
  chunkFileNames: "[name]-[hash].js",
});
await bundle.close();
