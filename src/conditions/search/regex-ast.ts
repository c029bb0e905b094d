/** The parsed form of a Python `re` pattern, as far as the translator accepts it (regex-parse.ts). */

/** A class escape or shorthand: \d \D \w \W \s \S. */
export type Shorthand = "d" | "D" | "w" | "W" | "s" | "S";

export type ClassItem =
  | { readonly t: "range"; readonly lo: number; readonly hi: number }
  | { readonly t: "shorthand"; readonly e: Shorthand };

/** `bol` = `^`, `eol` = `$`, `A` = `\A`, `Z` = `\Z`, `b` and `B` the word boundaries. */
export type Anchor = "bol" | "eol" | "A" | "Z" | "b" | "B";

export type Node =
  | { readonly t: "char"; readonly cp: number }
  | { readonly t: "any" }
  | { readonly t: "class"; readonly negated: boolean; readonly items: readonly ClassItem[] }
  | { readonly t: "shorthand"; readonly e: Shorthand }
  | { readonly t: "anchor"; readonly a: Anchor }
  | { readonly t: "group"; readonly index: number | null; readonly name: string | null; readonly body: Node }
  | { readonly t: "look"; readonly behind: boolean; readonly negated: boolean; readonly body: Node }
  | { readonly t: "backref"; readonly index: number }
  | {
      readonly t: "repeat";
      readonly body: Node;
      readonly min: number;
      readonly max: number;
      readonly lazy: boolean;
    }
  | { readonly t: "seq"; readonly items: readonly Node[] }
  | { readonly t: "alt"; readonly branches: readonly Node[] };

/** The leading inline flags the translator accepts. */
export interface Flags {
  readonly i: boolean;
  readonly s: boolean;
  readonly m: boolean;
  readonly x: boolean;
}

export interface ParsedPattern {
  readonly flags: Flags;
  readonly root: Node;
  readonly groups: number;
}

/** A pattern the translator refuses: Python rejects it, or it is outside the proven subset. */
export class PatternRefusal extends Error {}
