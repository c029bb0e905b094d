/**
 * The CLI's flag inventory (#35): one line per command with its arguments and the flags its --help
 * shows, then the deprecated aliases it still accepts, and the count of distinct visible flags.
 * test/cli/vocabulary.test.ts holds the inventory to one name per concept; this prints it to read.
 *
 *   npx tsx scripts/flag-inventory.ts
 */
import type { Command } from "commander";
import { buildProgram } from "../src/cli.ts";

const program = buildProgram({ out: () => undefined, err: () => undefined }, () => undefined);
const visible = new Set<string>();
const aliases: string[] = [];

function walk(command: Command, prefix: string): void {
  for (const sub of command.commands) {
    const path = `${prefix} ${sub.name()}`.trim();
    if (sub.commands.length > 0) {
      walk(sub, path);
      continue;
    }
    const args = sub.registeredArguments.map((a) => {
      const name = `${a.name()}${a.variadic ? "..." : ""}`;
      return a.required ? `<${name}>` : `[${name}]`;
    });
    const shown = sub.options.filter((o) => !o.hidden).map((o) => o.long ?? o.flags);
    for (const flag of shown) visible.add(flag);
    for (const o of sub.options.filter((o) => o.hidden))
      aliases.push(`${path} ${o.long ?? o.flags} → ${o.description.replace(/^deprecated: use /, "")}`);
    console.log(`${[path, ...args].join(" ")} :: ${shown.join(" ")}`);
  }
}

walk(program, "");
console.log(`\ndeprecated aliases (hidden, each warns once on stderr):\n  ${aliases.join("\n  ")}`);
console.log(`\ndistinct visible flags: ${visible.size}`);
