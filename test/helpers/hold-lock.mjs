// A live writer for tests: takes the write lock of argv[2] through the library, exactly as a
// writer does, writes its pid to argv[3] once it holds it, and holds it until it is killed.
import { writeFileSync } from "node:fs";
import { register } from "tsx/esm/api";

register();
const { acquireWriteLock } = await import(new URL("../../src/core/write-lock.ts", import.meta.url).href);
const [file, ready] = process.argv.slice(2);
acquireWriteLock(file, { command: "fabench run" });
writeFileSync(ready, String(process.pid));
setInterval(() => undefined, 60_000);
