/**
 * The simple commands of a shell text, as words — enough shell for the command lines in our docs
 * and a workflow's `run:` steps, not a shell: backslash-continued lines are joined; a newline,
 * `;`, `&&`, `||`, `|` or `&` between words ends a command; quotes are removed; `$(…)` and GitHub's
 * `${{ … }}` stay one word, spaces and all; a `#` that starts a word comments out the rest of its line.
 */
export function shellCommands(script: string): string[][] {
  const text = script.replace(/\\\r?\n/g, " ");
  const commands: string[][] = [];
  let words: string[] = [];
  let word: string | null = null;
  let quote: string | null = null;
  let depth = 0;
  const endWord = () => {
    if (word !== null) words.push(word);
    word = null;
  };
  const endCommand = () => {
    endWord();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote === null && depth === 0 && text.startsWith("${{", i)) {
      const close = text.indexOf("}}", i);
      const expression = close < 0 ? text.slice(i) : text.slice(i, close + 2);
      word = (word ?? "") + expression;
      i += expression.length - 1;
    } else if (quote !== null) {
      if (c === quote) quote = null;
      else word = (word ?? "") + c;
    } else if (depth > 0 || (c === "$" && text[i + 1] === "(")) {
      if (c === "(") depth++;
      if (c === ")") depth--;
      word = (word ?? "") + c;
    } else if (c === '"' || c === "'") {
      quote = c;
      word ??= "";
    } else if (c === "#" && word === null) {
      const newline = text.indexOf("\n", i);
      i = newline < 0 ? text.length : newline - 1;
    } else if (c === "\n" || c === ";" || ((c === "&" || c === "|") && word === null)) {
      endCommand();
      if ((c === "&" || c === "|") && text[i + 1] === c) i++;
    } else if (c === " " || c === "\t" || c === "\r") {
      endWord();
    } else {
      word = (word ?? "") + c;
    }
  }
  endCommand();
  return commands;
}
