/**
 * A parser for Python `re.search` patterns (Python 3.11 `sre_parse` rules) that accepts a subset
 * it can translate exactly and refuses the rest, naming the construct. Accepted: literals and
 * escapes, `.`, classes, `\d \D \w \W \s \S`, `^ $ \A \Z \b \B`, groups (capturing,
 * `(?:…)`, `(?P<name>…)`), `(?P=name)` and `\1`–`\9`, lookahead and fixed-width lookbehind,
 * `(?#…)`, greedy and lazy repeats, and leading flags `(?i)`, `(?s)`, `(?m)`, `(?x)`, `(?u)`.
 * Structural checks (backtracking bound, certain groups for references) are in regex-check.ts.
 */
import {
  type ClassItem,
  type Flags,
  type Node,
  type ParsedPattern,
  PatternRefusal,
  type Shorthand,
} from "./regex-ast.ts";

const refuse = (message: string): never => {
  throw new PatternRefusal(message);
};
/** Python's verbose-mode whitespace. */
const VERBOSE_SPACE = new Set([" ", "\t", "\n", "\r", "\v", "\f"]);
const ASCII_LETTER = /^[A-Za-z]$/;
const SIMPLE_ESCAPES: Readonly<Record<string, number>> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 };
/** The most repetitions a `{m,n}` may name here (Python allows more; a bound keeps the search bounded). */
export const MAX_REPEAT_COUNT = 1000;

class Parser {
  private pos = 0;
  private readonly chars: string[];
  private groups = 0;
  private readonly open = new Set<number>();
  readonly names = new Map<string, number>();
  flags: Flags = { i: false, s: false, m: false, x: false };

  constructor(pattern: string) {
    this.chars = [...pattern];
  }
  private get next(): string | undefined {
    return this.chars[this.pos];
  }
  private take(): string | undefined {
    return this.chars[this.pos++];
  }
  private match(s: string): boolean {
    if (this.next !== s) return false;
    this.pos++;
    return true;
  }

  parse(): ParsedPattern {
    this.leadingFlags();
    const root = this.alternation();
    if (this.next === ")") refuse("unbalanced parenthesis");
    return { flags: this.flags, root, groups: this.groups };
  }

  /** `(?i)`, `(?s)`, `(?m)`, `(?x)`, `(?u)` (and combinations) at the very start. */
  private leadingFlags(): void {
    for (;;) {
      const m = /^\(\?([a-zA-Z]+)\)/.exec(this.chars.slice(this.pos, this.pos + 12).join(""));
      if (!m) return;
      const letters = m[1] ?? "";
      for (const f of letters) {
        if (f === "a" || f === "L") refuse(`the inline flag (?${f}) is not supported`);
        if (!"ismxu".includes(f)) refuse(`unknown flag ${f} in (?${letters})`);
      }
      this.flags = {
        i: this.flags.i || letters.includes("i"),
        s: this.flags.s || letters.includes("s"),
        m: this.flags.m || letters.includes("m"),
        x: this.flags.x || letters.includes("x"),
      };
      this.pos += letters.length + 3;
    }
  }

  private alternation(): Node {
    const branches = [this.sequence()];
    while (this.match("|")) branches.push(this.sequence());
    return branches.length === 1 ? (branches[0] as Node) : { t: "alt", branches };
  }

  /** Skips verbose-mode whitespace and `#` comments; true when something was skipped. */
  private skipVerbose(): boolean {
    if (!this.flags.x) return false;
    const start = this.pos;
    for (;;) {
      const c = this.next;
      if (c !== undefined && VERBOSE_SPACE.has(c)) this.pos++;
      else if (c === "#") while (this.next !== undefined && this.take() !== "\n");
      else break;
    }
    return this.pos > start;
  }

  private sequence(): Node {
    const items: Node[] = [];
    for (;;) {
      this.skipVerbose();
      const c = this.next;
      if (c === undefined || c === "|" || c === ")") break;
      if ("*+?{".includes(c)) {
        if (c === "{" && !this.quantifierAhead()) {
          this.pos++;
          items.push({ t: "char", cp: 0x7b });
          continue;
        }
        const last = items.pop();
        if (last === undefined || last.t === "anchor") refuse("nothing to repeat");
        if (last?.t === "repeat") refuse("multiple repeat");
        items.push(this.repeat(last as Node));
        continue;
      }
      const atom = this.atom();
      if (atom !== null) items.push(atom);
    }
    return items.length === 1 ? (items[0] as Node) : { t: "seq", items };
  }

  /** True when the `{` at the cursor opens `{m}`, `{m,}`, `{,n}`, `{m,n}` or `{,}` (Python's rule). */
  private quantifierAhead(): boolean {
    return /^\{(\d*)(,\d*)?\}/.test(this.chars.slice(this.pos).join("")) && this.chars[this.pos + 1] !== "}";
  }

  private repeat(body: Node): Node {
    const c = this.take();
    let min = 0;
    let max = Number.POSITIVE_INFINITY;
    if (c === "+") min = 1;
    else if (c === "?") max = 1;
    else if (c === "{") {
      const text = this.chars.slice(this.pos).join("");
      const m = /^(\d*)(,(\d*))?\}/.exec(text) ?? refuse("bad repeat");
      this.pos += m[0].length;
      const lo = m[1] ?? "";
      const hi = m[2] === undefined ? lo : (m[3] ?? "");
      min = lo === "" ? 0 : Number(lo);
      max = hi === "" ? Number.POSITIVE_INFINITY : Number(hi);
      if (max < min) refuse("min repeat greater than max repeat");
      if (min > MAX_REPEAT_COUNT || (max !== Number.POSITIVE_INFINITY && max > MAX_REPEAT_COUNT))
        refuse(`a repeat count above ${MAX_REPEAT_COUNT}`);
    }
    const lazy = this.match("?");
    if (!lazy && this.next === "+") refuse("possessive repeats (*+, ++, ?+, {m,n}+) are not supported");
    if (body.t === "look") refuse("a repeated lookaround is not supported");
    return { t: "repeat", body, min, max, lazy };
  }

  /** One item; null for a comment group, which adds nothing. */
  private atom(): Node | null {
    const c = this.take() as string;
    if (c === "(") return this.group();
    if (c === "[") return this.charClass();
    if (c === ".") return { t: "any" };
    if (c === "^") return { t: "anchor", a: "bol" };
    if (c === "$") return { t: "anchor", a: "eol" };
    if (c === "\\") return this.escape();
    return { t: "char", cp: c.codePointAt(0) ?? 0 };
  }

  private escape(): Node {
    const c = this.take() ?? refuse("bad escape (end of pattern)");
    if (c === "A" || c === "Z" || c === "b" || c === "B") return { t: "anchor", a: c };
    if ("dDwWsS".includes(c)) return { t: "shorthand", e: c as Shorthand };
    if (/[1-9]/.test(c)) {
      if (/[0-9]/.test(this.next ?? ""))
        refuse("octal escapes and group references above 9 are not supported");
      return this.reference(Number(c));
    }
    return { t: "char", cp: this.escapedChar(c) };
  }

  /** The code point of an escape that stands for one character (outside or inside a class). */
  private escapedChar(c: string): number {
    if (c === "0") return refuse("octal escapes are not supported");
    const simple = SIMPLE_ESCAPES[c];
    if (simple !== undefined) return simple;
    const width = c === "x" ? 2 : c === "u" ? 4 : c === "U" ? 8 : 0;
    if (width > 0) {
      const hex = this.chars.slice(this.pos, this.pos + width).join("");
      if (!new RegExp(`^[0-9a-fA-F]{${width}}$`).test(hex)) refuse(`incomplete escape \\${c}${hex}`);
      this.pos += width;
      const cp = parseInt(hex, 16);
      if (cp > 0x10ffff) refuse(`bad escape \\${c}${hex}`);
      return cp;
    }
    if (c === "N") return refuse("named character escapes (\\N{…}) are not supported");
    if (ASCII_LETTER.test(c) || /[0-9]/.test(c)) return refuse(`bad escape \\${c}`);
    return c.codePointAt(0) ?? 0;
  }

  private reference(index: number): Node {
    if (index > this.groups) refuse(`invalid group reference ${index}`);
    if (this.open.has(index)) refuse("cannot refer to an open group");
    return { t: "backref", index };
  }

  private groupName(end: string): string {
    let name = "";
    while (this.next !== undefined && this.next !== end) name += this.take();
    if (!this.match(end)) refuse("missing group name terminator");
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      refuse(`group name ${JSON.stringify(name)}: only ASCII identifiers are supported`);
    return name;
  }

  private group(): Node | null {
    if (!this.match("?")) return this.capture(null);
    const c = this.take();
    if (c === ":") return { t: "group", index: null, name: null, body: this.closed() };
    if (c === "#") {
      while (this.next !== undefined && this.next !== ")") this.pos++;
      if (!this.match(")")) refuse("missing ), unterminated comment");
      return null;
    }
    if (c === "=" || c === "!") return { t: "look", behind: false, negated: c === "!", body: this.closed() };
    if (c === "<" && (this.next === "=" || this.next === "!")) {
      const negated = this.take() === "!";
      return { t: "look", behind: true, negated, body: this.closed() };
    }
    if (c === "P" && this.match("<")) {
      const name = this.groupName(">");
      if (this.names.has(name)) refuse(`redefinition of group name ${name}`);
      return this.capture(name);
    }
    if (c === "P" && this.match("=")) {
      const name = this.groupName(")");
      const index = this.names.get(name) ?? refuse(`unknown group name ${name}`);
      return this.reference(index);
    }
    if (c === "<") return refuse("(?<name>…) is not Python syntax here: use (?P<name>…)");
    if (c === ">") return refuse("atomic groups (?>…) are not supported");
    if (c === "(") return refuse("conditional groups (?(…)…) are not supported");
    if (c !== undefined && /[a-zA-Z-]/.test(c))
      return refuse("inline flags are supported only at the start of the pattern, for the whole of it");
    return refuse(`unknown extension ?${c ?? ""}`);
  }

  private capture(name: string | null): Node {
    const index = ++this.groups;
    if (name !== null) this.names.set(name, index);
    this.open.add(index);
    const body = this.closed();
    this.open.delete(index);
    return { t: "group", index, name, body };
  }

  /** The body of a group up to its `)`. */
  private closed(): Node {
    const body = this.alternation();
    if (!this.match(")")) refuse("missing ), unterminated subpattern");
    return body;
  }

  private charClass(): Node {
    const negated = this.match("^");
    const items: ClassItem[] = [];
    const start = this.pos;
    for (;;) {
      const c = this.take() ?? refuse("unterminated character set");
      if (c === "]" && this.pos - 1 !== start) break;
      const first = this.classAtom(c);
      if (this.next === "-" && this.chars[this.pos + 1] !== undefined && this.chars[this.pos + 1] !== "]") {
        this.pos++;
        const second = this.classAtom(this.take() as string);
        if (first.t !== "range" || second.t !== "range") refuse("bad character range");
        const lo = (first as { lo: number }).lo;
        const hi = (second as { lo: number }).lo;
        if (hi < lo) refuse("bad character range");
        items.push({ t: "range", lo, hi });
      } else items.push(first);
    }
    return { t: "class", negated, items };
  }

  /** One member of a class: a character (as a one-point range) or a shorthand. */
  private classAtom(c: string): ClassItem {
    if (c !== "\\") {
      const cp = c.codePointAt(0) ?? 0;
      return { t: "range", lo: cp, hi: cp };
    }
    const e = this.take() ?? refuse("unterminated character set");
    if ("dDwWsS".includes(e)) return { t: "shorthand", e: e as Shorthand };
    if (e === "b") return { t: "range", lo: 8, hi: 8 };
    if (/[1-9]/.test(e)) return refuse("octal escapes are not supported");
    const cp = this.escapedChar(e);
    return { t: "range", lo: cp, hi: cp };
  }
}

/** Parses a Python pattern into the accepted subset, or throws a PatternRefusal naming the construct. */
export function parsePythonPattern(pattern: string): ParsedPattern {
  return new Parser(pattern).parse();
}
