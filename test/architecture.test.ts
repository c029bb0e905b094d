/**
 * The house rules a newcomer relies on, checked on the source itself: imports run one way, a
 * stage is entered through its front door, only the CLI reads the process environment, and each
 * protocol constant has one home.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { parseAst } from "rolldown/parseAst";
import { describe, expect, it } from "vitest";

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

const FILES = sources("src");
/** Every relative import of every source file, resolved to a path under src/. */
const IMPORTS = FILES.flatMap((file) =>
  [...readFileSync(file, "utf8").matchAll(/from "(\.{1,2}\/[^"]+)"/g)].map((m) => ({
    file,
    target: normalize(join(dirname(file), m[1] as string)),
  })),
);

/** The stage a file belongs to: `src/conditions/<part>` for the runner's parts, else `src/<stage>`. */
function stage(path: string): string {
  const parts = path.split("/");
  if (parts.length <= 2) return path;
  return parts[1] === "conditions" && parts.length > 3
    ? parts.slice(0, 3).join("/")
    : parts.slice(0, 2).join("/");
}

/** What each stage must never import (downstream stages may not reach upstream ones; only the commands load the world). */
const FORBIDDEN: Record<string, readonly string[]> = {
  "src/core": [
    "src/authoring",
    "src/conditions",
    "src/providers",
    "src/envelope",
    "src/metrics",
    "src/summary",
    "src/gates",
    "src/report",
    "src/commands",
    "src/world",
    "src/cli",
  ],
  "src/providers": [
    "src/authoring",
    "src/conditions",
    "src/envelope",
    "src/metrics",
    "src/summary",
    "src/gates",
    "src/report",
    "src/commands",
    "src/world",
    "src/cli",
  ],
  "src/envelope": [
    "src/conditions",
    "src/providers",
    "src/metrics",
    "src/summary",
    "src/gates",
    "src/report",
    "src/commands",
    "src/world",
    "src/cli",
  ],
  "src/metrics": [
    "src/conditions",
    "src/providers",
    "src/summary",
    "src/gates",
    "src/report",
    "src/commands",
    "src/world",
    "src/cli",
  ],
  // The gate never reads the judge (#19): a judgment cannot move a verdict, not even by accident.
  "src/gates": [
    "src/conditions",
    "src/providers",
    "src/summary",
    "src/report",
    "src/judge",
    "src/commands",
    "src/world",
    "src/cli",
  ],
  "src/summary": ["src/providers", "src/report", "src/judge", "src/commands", "src/world", "src/cli"],
  "src/report": ["src/conditions", "src/providers", "src/commands", "src/world", "src/cli"],
  "src/conditions": [
    "src/metrics",
    "src/summary",
    "src/gates",
    "src/report",
    "src/commands",
    "src/world",
    "src/cli",
  ],
  "src/commands": ["src/cli"],
  // A second instrument: it may use the core and model providers, and reads no #424 stage.
  "src/discover-call": [
    "src/authoring",
    "src/conditions",
    "src/envelope",
    "src/metrics",
    "src/summary",
    "src/gates",
    "src/report",
    "src/commands",
    "src/world",
    "src/cli",
  ],
  // The loader of the frozen world reads the files the pure stages define; it scores, renders and
  // calls nothing, and only the commands use it.
  "src/world": [
    "src/providers",
    "src/envelope",
    "src/metrics",
    "src/summary",
    "src/report",
    "src/judge",
    "src/discover-call",
    "src/sensitivity",
    "src/serve",
    "src/commands",
    "src/cli",
  ],
  // The secondary judge reads runs, tasks and the protocol; it has no business with verdicts or pages.
  "src/judge": [
    "src/gates",
    "src/report",
    "src/discover-call",
    "src/serve",
    "src/commands",
    "src/world",
    "src/cli",
  ],
  // Probe sensitivity runs agents and scores them; it has no business with statistics, verdicts,
  // pages, model providers or the other instruments.
  "src/sensitivity": [
    "src/providers",
    "src/summary",
    "src/gates",
    "src/report",
    "src/judge",
    "src/discover-call",
    "src/serve",
    "src/commands",
    "src/world",
    "src/cli",
  ],
  // A comparison reads two finished summaries (and manifests for the ranks): no runs, models,
  // files or other instruments; the command reads the files and hands them over.
  "src/compare": [
    "src/providers",
    "src/judge",
    "src/discover-call",
    "src/sensitivity",
    "src/serve",
    "src/commands",
    "src/world",
    "src/cli",
  ],
  // The export writes a scored run in other tools' formats: it reads runs, tasks and summaries, and
  // has no business with model providers, verdicts or the other instruments.
  "src/export": [
    "src/providers",
    "src/gates",
    "src/judge",
    "src/discover-call",
    "src/sensitivity",
    "src/serve",
    "src/commands",
    "src/world",
    "src/cli",
  ],
  // The API server answers from the frozen world (catalog, router, replay executor, task type) and
  // nothing else: no scoring, no model providers, no code of the instrument that is its client.
  "src/serve": [
    "src/envelope",
    "src/metrics",
    "src/summary",
    "src/gates",
    "src/report",
    "src/providers",
    "src/discover-call",
    "src/commands",
    "src/world",
    "src/cli",
  ],
};

/** Modules the CLI may import past a front door: constants for option parsing, nothing heavy. */
const LIGHT_CONSTANTS = [
  "src/conditions/agents/lanes.ts",
  "src/conditions/execution/tokens.ts",
  "src/conditions/execution/widening.ts",
  "src/conditions/runner/episodes.ts",
  "src/authoring/interval-methods.ts",
  "src/authoring/pilot-files.ts",
  "src/core/circuit-breaker.ts",
  "src/authoring/pilot-hint.ts",
];

interface FunctionLength {
  readonly name: string;
  readonly line: number;
  readonly lines: number;
}

/** Every function's (declaration, expression, arrow, method) first line and length in lines, from a real parse. */
function functionLengths(text: string, file: string): FunctionLength[] {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const lineOf = (offset: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((lineStarts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const found: FunctionLength[] = [];
  const FUNCTIONS = ["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"];
  const walk = (node: unknown, name: string) => {
    if (Array.isArray(node)) {
      for (const child of node) walk(child, name);
      return;
    }
    if (node === null || typeof node !== "object") return;
    const n = node as Record<string, unknown> & { type?: string; start: number; end: number };
    let here = name;
    const id = (n["id"] ?? n["key"]) as { name?: string } | undefined;
    if (typeof id?.name === "string") here = id.name;
    if (typeof n.type === "string" && FUNCTIONS.includes(n.type) && n["body"]) {
      const line = lineOf(n.start);
      found.push({ name: here, line, lines: lineOf(n.end) - line + 1 });
    }
    for (const [key, child] of Object.entries(n)) if (key !== "type") walk(child, here);
  };
  walk(parseAst(text, { lang: "ts" }, file).body, "<anonymous>");
  return found;
}

describe("the source tree", () => {
  it("has imports that run one way: no stage reaches a stage upstream of it", () => {
    const broken = IMPORTS.filter(({ file, target }) => {
      const from = stage(file).startsWith("src/conditions") ? "src/conditions" : stage(file);
      return (FORBIDDEN[from] ?? []).some((f) => target.startsWith(`${f}/`) || target === `${f}.ts`);
    }).map(({ file, target }) => `${file} -> ${target}`);
    expect(broken).toEqual([]);
  });

  it("keeps files small: none over 400 lines, and a command file (it only wires) at most 200", () => {
    const lines = (f: string) => readFileSync(f, "utf8").split("\n").length - 1;
    expect(FILES.filter((f) => lines(f) > 400).map((f) => `${f}: ${lines(f)} lines`)).toEqual([]);
    const commands = FILES.filter((f) => f.startsWith("src/commands/"));
    expect(commands.filter((f) => lines(f) > 200).map((f) => `${f}: ${lines(f)} lines`)).toEqual([]);
  });

  it("has no function over 80 lines (a longer one is several steps that want names)", () => {
    const long = FILES.flatMap((file) =>
      functionLengths(readFileSync(file, "utf8"), file)
        .filter((f) => f.lines > 80)
        .map((f) => `${file}:${f.line} ${f.name}: ${f.lines} lines`),
    );
    expect(long).toEqual([]);
  });

  it("has no import cycle between files (type-only imports included)", () => {
    const graph = new Map<string, string[]>();
    for (const { file, target } of IMPORTS) graph.set(file, [...(graph.get(file) ?? []), target]);
    // Depth-first search; a back edge to a file still on the stack closes a cycle.
    const state = new Map<string, "open" | "done">();
    const cycles: string[] = [];
    const visit = (file: string, stack: string[]) => {
      state.set(file, "open");
      for (const next of graph.get(file) ?? []) {
        if (state.get(next) === "open")
          cycles.push([...stack.slice(stack.indexOf(next)), file, next].join(" -> "));
        else if (!state.has(next)) visit(next, [...stack, file]);
      }
      state.set(file, "done");
    };
    for (const file of FILES) if (!state.has(file)) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it("enters another stage only through its front door (index.ts)", () => {
    const inner = IMPORTS.filter(({ file, target }) => {
      if (stage(file) === stage(target) || target.endsWith("/index.ts")) return false;
      // Within conditions, the five parts share their files; the CLI and commands have no front door.
      if (file.startsWith("src/conditions/") && target.startsWith("src/conditions/")) return false;
      // The CLI's option parsing reads a few constant modules directly, so `--help` and
      // `--version` load no schema, SDK or tokenizer (each of these imports nothing heavy).
      if (file.startsWith("src/cli/") && LIGHT_CONSTANTS.includes(target)) return false;
      return !["src/commands", "src/cli"].includes(stage(target)) && target !== "src/cli.ts";
    }).map(({ file, target }) => `${file} -> ${target}`);
    expect(inner).toEqual([]);
  });

  it("lets a new stage use model providers without importing the condition runner", () => {
    const providerImports = IMPORTS.filter(({ file }) => file.startsWith("src/providers/")).map(
      ({ target }) => stage(target),
    );
    expect(providerImports.filter((s) => s !== "src/providers" && s !== "src/core")).toEqual([]);
    // The client factory is public, beside the clients.
    expect(readFileSync("src/providers/index.ts", "utf8")).toMatch(/\bcreateClient\b/);
  });

  it("reads the process environment only in the CLI's entry", () => {
    const readers = FILES.filter((f) =>
      /process\.env\b/.test(readFileSync(f, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "")),
    ).map((f) => relative(".", f));
    expect(readers).toEqual(["src/cli.ts"]);
  });

  it("keeps summarising and statistics out of the commands", () => {
    const commands = FILES.filter((f) => f.startsWith("src/commands/"));
    const offenders = commands.filter((f) =>
      /\b(summarizeEpisodes|bootstrap|buildStatistics|aggregate)\(/.test(readFileSync(f, "utf8")),
    );
    expect(offenders).toEqual([]);
  });

  it("lists the interval methods once, beside the protocol that names one of them", () => {
    const lists = FILES.filter((f) => /"percentile",\s*"percentile_widened"/.test(readFileSync(f, "utf8")));
    expect(lists).toEqual(["src/authoring/interval-methods.ts"]);
  });

  it("types out no gate margin, seed or tokenizer default outside their homes", () => {
    const code = (f: string) => readFileSync(f, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    const typed = (pattern: RegExp) => FILES.filter((f) => pattern.test(code(f)));
    expect(typed(/20260929/)).toEqual([]);
    // The built-in simulation scenarios are data with true deltas of their own (one sits at
    // today's margin by construction); nothing else may type a margin.
    expect(typed(/-0\.02\b|\b0\.02\b/)).toEqual(["src/metrics/simulate/scenarios.ts"]);
    expect(typed(/"o200k_base"/)).toEqual(["src/conditions/execution/tokens.ts"]);
    expect(typed(/"ORACLE"|"FULL"/)).toEqual([]);
  });

  it("starts the CLI without loading schemas, SDKs or the tokenizer (commands load when they run)", () => {
    // Follow the static, non-type imports from the entry; dynamic import() is where commands load.
    const seen = new Set<string>();
    const packages = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
      for (const m of text.matchAll(/^(?:import|export) (?!type )[^;]*? from "([^"]+)";/gms)) {
        const spec = m[1] as string;
        if (spec.startsWith(".")) visit(normalize(join(dirname(file), spec)));
        else if (!spec.startsWith("node:")) packages.add(spec);
      }
    };
    visit("src/cli.ts");
    expect([...packages].sort()).toEqual(["commander", "seedrandom"]);
    // io.ts, and interrupt.ts: a command still loading must already answer Ctrl-C (both import no package).
    const light = (f: string) => f.endsWith("/shell/io.ts") || f.endsWith("/shell/interrupt.ts");
    expect([...seen].filter((f) => f.startsWith("src/commands/") && !light(f))).toEqual([]);
  });
});
