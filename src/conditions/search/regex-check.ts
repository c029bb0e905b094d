/**
 * The structural rules a pattern must pass before it runs, each for a reason:
 * - Lookbehind is fixed-width (Python refuses anything else; JS would accept it).
 * - A back-reference names a group that always took part (see regex-js.ts) and is not in a lookbehind.
 * - Backtracking is bounded. A repeat of more than one may hold no other repeat and no alternation
 *   (star height one, no ambiguous branches under a star), so a repeat has at most n + 1 ways to
 *   match at a position of a text of n characters; the ways of a sequence multiply, of an
 *   alternation add. Paths tried per field ≤ (n + 1) × ways, with n the catalog's longest field;
 *   a pattern whose bound passes MAX_BACKTRACK_PATHS is refused. One `.*` is fine at any position;
 *   two in one sequence are not (they would be (n + 1)³ on a long description) — except at the
 *   ends, where a repeat of minimum 0 is dropped first (trimEdgeRepeats: it cannot change whether
 *   `re.search` finds a match), so `.*temp.*sensor.*` runs as `temp.*sensor`.
 */
import type { Node, ParsedPattern } from "./regex-ast.ts";
import { PatternRefusal } from "./regex-ast.ts";

/** The most backtracking paths a pattern may have over one field (see above). */
export const MAX_BACKTRACK_PATHS = 10_000_000;

const refuse = (message: string): never => {
  throw new PatternRefusal(message);
};

function children(n: Node): readonly Node[] {
  if (n.t === "group" || n.t === "look" || n.t === "repeat") return [n.body];
  if (n.t === "seq") return n.items;
  if (n.t === "alt") return n.branches;
  return [];
}

function some(n: Node, test: (m: Node) => boolean): boolean {
  return test(n) || children(n).some((c) => some(c, test));
}

/** Minimum and maximum width in characters (Infinity when unbounded). */
export function width(n: Node): [number, number] {
  switch (n.t) {
    case "char":
    case "any":
    case "class":
    case "shorthand":
      return [1, 1];
    case "anchor":
    case "look":
      return [0, 0];
    case "backref":
      return [0, Number.POSITIVE_INFINITY];
    case "group":
      return width(n.body);
    case "repeat": {
      const [lo, hi] = width(n.body);
      return [lo * n.min, n.max === 0 || hi === 0 ? 0 : hi * n.max];
    }
    case "seq":
      return n.items.map(width).reduce(([a, b], [c, d]) => [a + c, b + d], [0, 0]);
    case "alt": {
      const ws = n.branches.map(width);
      return [Math.min(...ws.map((w) => w[0])), Math.max(...ws.map((w) => w[1]))];
    }
  }
}

/** Backtracking ways at one position of a text of `n` characters (see the file comment). */
export function ways(node: Node, n: number): number {
  switch (node.t) {
    case "group":
    case "look":
      return ways(node.body, n);
    case "seq":
      return node.items.reduce((a, i) => a * ways(i, n), 1);
    case "alt":
      return node.branches.reduce((a, b) => a + ways(b, n), 0);
    case "repeat":
      if (node.max <= 1) return ways(node.body, n) + (node.min === 0 ? 1 : 0);
      return Math.max(1, Math.min(node.max, n) - node.min + 1);
    default:
      return 1;
  }
}

/** Groups that take part in every match (no alternation, repeat or lookaround above them). */
function certainGroups(n: Node, uncertain: boolean, out: Set<number>): Set<number> {
  if (n.t === "group" && n.index !== null && !uncertain) out.add(n.index);
  const below = uncertain || n.t === "repeat" || n.t === "look" || (n.t === "alt" && n.branches.length > 1);
  for (const c of children(n)) certainGroups(c, below, out);
  return out;
}

function checkNode(n: Node, certain: ReadonlySet<number>, inBehind: boolean): void {
  if (n.t === "repeat" && n.max > 1 && some(n.body, (m) => m.t === "repeat" || m.t === "alt"))
    refuse("a repeat holding another repeat or an alternation is not supported (backtracking bound)");
  if (n.t === "look" && n.behind) {
    const [lo, hi] = width(n.body);
    if (lo !== hi) refuse("look-behind requires a fixed-width pattern");
  }
  if (n.t === "backref") {
    if (inBehind) refuse("a group reference inside a look-behind is not supported");
    if (!certain.has(n.index))
      refuse(
        `group reference ${n.index}: only references to a group outside any alternation, repeat or lookaround are supported`,
      );
  }
  const behind = inBehind || (n.t === "look" && n.behind);
  for (const c of children(n)) checkNode(c, certain, behind);
}

const optionalRepeat = (n: Node | undefined) => n?.t === "repeat" && n.min === 0;

/** A top-level sequence without the repeats of minimum 0 at its ends. */
function trimmed(n: Node): Node {
  if (n.t !== "seq") return optionalRepeat(n) ? { t: "seq", items: [] } : n;
  const items = [...n.items];
  while (optionalRepeat(items[0])) items.shift();
  while (optionalRepeat(items[items.length - 1])) items.pop();
  return items.length === 1 ? (items[0] as Node) : { t: "seq", items };
}

/**
 * `re.search` finds `Y*X` somewhere exactly when it finds `X` somewhere (zero repeats, or start
 * after them), and `XY*` exactly when `X`: a repeat of minimum 0 at either end of the pattern (or of
 * a top-level alternative) changes only where a match spans, never whether there is one, and the
 * search asks only whether. Dropping them lets `.*weather.*` run as `weather`. Only at the top
 * level, never inside a group (a reference could read it; regex-check refuses references into a
 * repeat anyway).
 */
export function trimEdgeRepeats(parsed: ParsedPattern): ParsedPattern {
  const root =
    parsed.root.t === "alt"
      ? { ...parsed.root, branches: parsed.root.branches.map(trimmed) }
      : trimmed(parsed.root);
  return { ...parsed, root };
}

/** Refuses a pattern that breaks a rule above; `longestField` is the catalog's longest field in characters. */
export function checkPattern(parsed: ParsedPattern, longestField: number): void {
  checkNode(parsed.root, certainGroups(parsed.root, false, new Set()), false);
  if ((longestField + 1) * ways(parsed.root, longestField) > MAX_BACKTRACK_PATHS)
    refuse(
      `too many ways to backtrack (at most ${MAX_BACKTRACK_PATHS} paths per field): use fewer unbounded repeats in one sequence`,
    );
}
