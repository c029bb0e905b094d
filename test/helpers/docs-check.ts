/**
 * Checks Markdown docs on strings, so the checker itself can be tested: every relative link
 * resolves (a file that exists, an anchor that is one of its headings), and every `fabench …`
 * command line in a fenced code block names a subcommand the CLI has and only options that
 * subcommand (or the root) has. The CLI's shape comes from its own commander program, never from a
 * list kept here. Shell is read only as far as docs use it: `\` continuations, `#` comments,
 * quotes, `$(…)`, heredocs, `;`, `&&`, `||`, `|` and `&` between commands, redirections, and
 * synopsis brackets (`[--flag VALUE]`, `(--a X | --b Y)`).
 */
import { posix } from "node:path";
import type { Command } from "commander";
import { shellCommands } from "./shell-words.ts";

export interface DocProblem {
  readonly file: string;
  readonly line: number;
  readonly message: string;
}

export const formatProblem = (p: DocProblem): string => `${p.file}:${p.line}: ${p.message}`;

// ---------------------------------------------------------------------------------------------
// Headings and links.

/** GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces → `-`. */
export function githubSlug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
    .replaceAll(" ", "-");
}

interface MarkdownLine {
  readonly number: number;
  readonly text: string;
}

interface FencedBlock {
  /** The info string's first word (`sh`, `json`, …), or "". */
  readonly lang: string;
  readonly lines: readonly MarkdownLine[];
}

/** The document split into prose lines (outside fences) and fenced blocks. */
function splitFences(markdown: string): { prose: MarkdownLine[]; blocks: FencedBlock[] } {
  const prose: MarkdownLine[] = [];
  const blocks: FencedBlock[] = [];
  let open: { fence: string; lang: string; lines: MarkdownLine[] } | null = null;
  markdown.split("\n").forEach((text, i) => {
    const fence = /^\s*(`{3,}|~{3,})\s*([^\s`]*)/.exec(text);
    if (open === null && fence) {
      open = { fence: fence[1] as string, lang: (fence[2] as string).toLowerCase(), lines: [] };
    } else if (open !== null && fence && (fence[1] as string).startsWith(open.fence) && fence[2] === "") {
      blocks.push({ lang: open.lang, lines: open.lines });
      open = null;
    } else if (open !== null) {
      open.lines.push({ number: i + 1, text });
    } else {
      prose.push({ number: i + 1, text });
    }
  });
  return { prose, blocks };
}

/** Every anchor the document's headings make, with GitHub's `-1`, `-2` for repeats. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of splitFences(markdown).prose) {
    const heading = /^ {0,3}#{1,6} +(.*?)(?: +#+)? *$/.exec(text);
    if (!heading) continue;
    const slug = githubSlug(heading[1] as string);
    const count = seen.get(slug) ?? 0;
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
    seen.set(slug, count + 1);
  }
  return anchors;
}

/** What the link checker may ask of the file system (an in-memory map in the checker's tests). */
export interface DocFiles {
  exists(path: string): boolean;
  /** The text of a Markdown file that exists. */
  read(path: string): string;
}

/** Relative links `[x](path)`, `[x](path#anchor)` and `[x](#anchor)` that do not resolve. */
export function linkProblems(file: string, markdown: string, files: DocFiles): DocProblem[] {
  const problems: DocProblem[] = [];
  for (const { number, text } of splitFences(markdown).prose) {
    // Code spans are not links, whatever they hold.
    const prose = text.replace(/(`+)[^`]*?\1/g, "code");
    for (const match of prose.matchAll(/\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1] as string;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const hash = target.indexOf("#");
      const path = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
      const anchor = hash < 0 ? null : target.slice(hash + 1);
      const resolved = path === "" ? file : posix.normalize(posix.join(posix.dirname(file), path));
      const report = (message: string) => problems.push({ file, line: number, message });
      if (!files.exists(resolved)) {
        report(`broken link ${target}: ${resolved} does not exist`);
      } else if (anchor !== null) {
        if (!resolved.endsWith(".md"))
          report(`broken link ${target}: an anchor in a file that is not Markdown`);
        else if (!headingAnchors(files.read(resolved)).has(anchor))
          report(`broken link ${target}: ${resolved} has no heading #${anchor}`);
      }
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// The CLI's shape.

type Arity = "none" | "required" | "optional";

export interface CommandNode {
  /** `--long` and `-s` flags, with whether each takes a value. */
  readonly options: ReadonlyMap<string, Arity>;
  readonly subcommands: ReadonlyMap<string, CommandNode>;
}

/** The command tree of a commander program: names, aliases and options, with nothing run. */
export function commandTree(command: Command): CommandNode {
  const options = new Map<string, Arity>([
    ["--help", "none"],
    ["-h", "none"],
  ]);
  for (const option of command.options) {
    const arity: Arity = option.required ? "required" : option.optional ? "optional" : "none";
    if (option.long) options.set(option.long, arity);
    if (option.short) options.set(option.short, arity);
  }
  const subcommands = new Map<string, CommandNode>();
  for (const sub of command.commands) {
    const node = commandTree(sub);
    for (const name of [sub.name(), ...sub.aliases()]) subcommands.set(name, node);
  }
  return { options, subcommands };
}

// ---------------------------------------------------------------------------------------------
// Command lines out of fenced blocks.

/** Info strings of blocks that hold data or code, never a shell command line. */
const NOT_SHELL = new Set([
  "json",
  "jsonl",
  "js",
  "mjs",
  "javascript",
  "ts",
  "typescript",
  "yaml",
  "yml",
  "html",
]);

/** A block's logical lines: `\` continuations joined, heredoc bodies dropped; transcripts keep only `$ ` lines. */
function logicalLines(block: FencedBlock): MarkdownLine[] {
  const transcript = block.lines.some((l) => /^\s*\$ /.test(l.text));
  const out: MarkdownLine[] = [];
  let pending: { number: number; text: string } | null = null;
  let heredoc: string | null = null;
  for (const { number, text } of block.lines) {
    if (heredoc !== null) {
      if (text.trim() === heredoc) heredoc = null;
      continue;
    }
    let line = text;
    if (pending === null) {
      if (transcript) {
        const command = /^\s*\$ (.*)$/.exec(line);
        if (!command) continue;
        line = command[1] as string;
      }
      pending = { number, text: "" };
    }
    const continued = /\\\s*$/.test(line);
    pending.text += ` ${continued ? line.replace(/\\\s*$/, "") : line}`;
    const here = /<<-?\s*['"]?(\w+)['"]?/.exec(line);
    if (here) heredoc = here[1] as string;
    if (!continued) {
      out.push(pending);
      pending = null;
    }
  }
  if (pending !== null) out.push(pending);
  return out;
}

/** Synopsis brackets and elisions around a word: `[--out`, `FILE]...`, `(--runs`. */
const bare = (word: string): string => word.replace(/^[[(]+/, "").replace(/(?:[\])]|\.\.\.|…)+$/, "");

/** The arguments after `fabench`, `npx fabench`, `npm run [-s] fabench --` or `node …/fabench.mjs`, if the words run it. */
function fabenchArgs(words: readonly string[]): string[] | null {
  let i = 0;
  while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i] as string)) i++;
  const isFabench = (w: string | undefined) =>
    w !== undefined && (w === "fabench" || w.endsWith("/fabench") || /(^|\/)fabench\.mjs$/.test(w));
  const first = words[i];
  let at = -1;
  if (isFabench(first)) at = i;
  else if ((first === "npx" || first === "node") && isFabench(words[i + 1])) at = i + 1;
  else if (first === "npm" && words[i + 1] === "run") {
    const script = words.findIndex((w, j) => j > i + 1 && !w.startsWith("-"));
    if (script >= 0 && words[script] === "fabench") at = script;
  }
  if (at < 0) return null;
  const args = words.slice(at + 1);
  return args[0] === "--" ? args.slice(1) : args;
}

/** Every fabench command line in the document's fenced blocks, with the line it starts on. */
export function fabenchCommandLines(markdown: string): { line: number; args: string[] }[] {
  const found: { line: number; args: string[] }[] = [];
  for (const block of splitFences(markdown).blocks) {
    if (NOT_SHELL.has(block.lang)) continue;
    for (const { number, text } of logicalLines(block)) {
      let last: string[] | null = null;
      for (const words of shellCommands(text)) {
        const args = fabenchArgs(words);
        if (args !== null) found.push({ line: number, args: (last = args) });
        // `(--runs A | --summary B)` in a synopsis: the alternative goes on the same command.
        else if (last !== null && bare(words[0] as string).startsWith("-")) last.push(...words);
        else last = null;
      }
    }
  }
  return found;
}

/** What is wrong with one command's words (after `fabench`) against the CLI's tree; empty when nothing. */
export function invocationProblems(args: readonly string[], root: CommandNode): string[] {
  const path: string[] = [];
  let node = root;
  let i = 0;
  while (node.subcommands.size > 0 && i < args.length && !(args[i] as string).startsWith("-")) {
    const name = args[i] as string;
    const sub = node.subcommands.get(name);
    if (!sub)
      return [`fabench ${args.join(" ")}: no command "${name}" under "${["fabench", ...path].join(" ")}"`];
    path.push(name);
    node = sub;
    i++;
  }
  const where = ["fabench", ...path].join(" ");
  const problems: string[] = [];
  for (; i < args.length; i++) {
    const word = bare(args[i] as string);
    if (word === "--") break;
    if (!word.startsWith("-") || word === "-" || /^-\d/.test(word)) continue;
    const eq = word.indexOf("=");
    const flag = eq < 0 ? word : word.slice(0, eq);
    const arity = node.options.get(flag) ?? root.options.get(flag);
    if (arity === undefined) {
      problems.push(`unknown option ${flag} for "${where}"`);
      continue;
    }
    if (eq >= 0) continue;
    const next = args[i + 1];
    // As commander reads them: a required value is the next word whatever it looks like.
    if (arity === "required") {
      if (next === undefined) problems.push(`${flag} of "${where}" needs a value`);
      i++;
    } else if (arity === "optional" && next !== undefined && !next.startsWith("-")) i++;
  }
  return problems;
}

/** Every problem of every fabench command line in the document. */
export function commandProblems(file: string, markdown: string, root: CommandNode): DocProblem[] {
  return fabenchCommandLines(markdown).flatMap(({ line, args }) =>
    invocationProblems(args, root).map((message) => ({ file, line, message })),
  );
}
