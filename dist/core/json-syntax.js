/**
 * Two small scanners over JSON text, used where JSON.parse says too little:
 * - `locateJsonError` finds the first syntax error's offset and a plain reason (V8's messages
 *   sometimes have no position and sometimes quote a snippet of the input);
 * - `arrayElementStarts` finds where each element of the top-level task list begins, so problems
 *   in a JSON corpus can name a line, not only an index.
 * Both are iterative, so deeply nested garbage cannot overflow the stack.
 */
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS = ["true", "false", "null"];
export function locateJsonError(text) {
    const n = text.length;
    const stack = [];
    let i = 0;
    let state = "value";
    const fail = (reason) => ({ offset: i, reason });
    for (;;) {
        i = skipWhitespace(text, i);
        if (i >= n)
            return state === "after" && stack.length === 0 ? null : fail("unexpected end of input");
        const ch = text[i] ?? "";
        if (state === "after") {
            const top = stack[stack.length - 1];
            if (top === undefined)
                return fail(`unexpected ${describe(ch)} after the JSON value`);
            const close = top === "{" ? "}" : "]";
            if (ch === ",") {
                i++;
                state = top === "{" ? "key" : "value";
            }
            else if (ch === close) {
                stack.pop();
                i++;
            }
            else
                return fail(`expected ',' or '${close}' but found ${describe(ch)}`);
            continue;
        }
        if (state === "key_or_close" && ch === "}") {
            stack.pop();
            i++;
            state = "after";
            continue;
        }
        if (state === "key" || state === "key_or_close") {
            if (ch !== '"')
                return fail(`expected a double-quoted property name but found ${describe(ch)}`);
            const end = scanString(text, i);
            if (typeof end !== "number")
                return end;
            i = skipWhitespace(text, end);
            if (text[i] !== ":")
                return fail(`expected ':' after a property name`);
            i++;
            state = "value";
            continue;
        }
        if (state === "value_or_close" && ch === "]") {
            stack.pop();
            i++;
            state = "after";
            continue;
        }
        // state is "value" or "value_or_close"
        if (ch === "{" || ch === "[") {
            stack.push(ch);
            i++;
            state = ch === "{" ? "key_or_close" : "value_or_close";
            continue;
        }
        if (ch === '"') {
            const end = scanString(text, i);
            if (typeof end !== "number")
                return end;
            i = end;
        }
        else if (ch === "-" || (ch >= "0" && ch <= "9")) {
            NUMBER.lastIndex = i;
            if (!NUMBER.test(text))
                return fail("invalid number");
            i = NUMBER.lastIndex;
        }
        else {
            const literal = LITERALS.find((word) => text.startsWith(word, i));
            if (literal === undefined)
                return fail(`unexpected ${describe(ch)}`);
            i += literal.length;
        }
        state = "after";
    }
}
/** Offset after the closing quote of the string starting at `start`, or the error in it. */
function scanString(text, start) {
    let i = start + 1;
    while (i < text.length) {
        const c = text.charCodeAt(i);
        if (c === 0x22)
            return i + 1;
        if (c === 0x5c) {
            const escape = text[i + 1] ?? "";
            if (escape === "u") {
                if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)))
                    return { offset: i, reason: "invalid \\u escape" };
                i += 6;
            }
            else if ('"\\/bfnrt'.includes(escape) && escape !== "")
                i += 2;
            else
                return { offset: i, reason: "invalid escape in string" };
        }
        else if (c < 0x20)
            return { offset: i, reason: "control character in string" };
        else
            i++;
    }
    return { offset: start, reason: "unterminated string" };
}
function skipWhitespace(text, i) {
    while (i < text.length) {
        const c = text.charCodeAt(i);
        if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d)
            break;
        i++;
    }
    return i;
}
function describe(ch) {
    const cp = ch.codePointAt(0) ?? 0;
    return cp > 0x20 && cp < 0x7f ? `'${ch}'` : `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
}
/**
 * Start offsets of the elements of the root array (`key` null) or of the array under the root
 * object's `key`. The text must already be valid JSON.
 */
export function arrayElementStarts(text, key) {
    let i = skipWhitespace(text, 0);
    if (key === null)
        return text[i] === "[" ? elementsFrom(text, i) : [];
    if (text[i] !== "{")
        return [];
    let found = [];
    i++;
    for (;;) {
        i = skipWhitespace(text, i);
        if (text[i] !== '"')
            return found;
        const end = scanString(text, i);
        if (typeof end !== "number")
            return found;
        const name = JSON.parse(text.slice(i, end));
        i = skipWhitespace(text, skipWhitespace(text, end) + 1);
        // The last duplicate key wins, as in JSON.parse.
        if (name === key && text[i] === "[")
            found = elementsFrom(text, i);
        i = skipWhitespace(text, skipValue(text, i));
        if (text[i] !== ",")
            return found;
        i++;
    }
}
function elementsFrom(text, open) {
    const starts = [];
    let i = open + 1;
    for (;;) {
        i = skipWhitespace(text, i);
        if (i >= text.length || text[i] === "]")
            return starts;
        starts.push(i);
        i = skipWhitespace(text, skipValue(text, i));
        if (text[i] === ",")
            i++;
    }
}
function skipValue(text, i) {
    const ch = text[i];
    if (ch === '"') {
        const end = scanString(text, i);
        return typeof end === "number" ? end : text.length;
    }
    if (ch === "{" || ch === "[") {
        let depth = 0;
        while (i < text.length) {
            const c = text[i];
            if (c === '"') {
                const end = scanString(text, i);
                i = typeof end === "number" ? end : text.length;
                continue;
            }
            if (c === "{" || c === "[")
                depth++;
            else if (c === "}" || c === "]") {
                depth--;
                if (depth === 0)
                    return i + 1;
            }
            i++;
        }
        return i;
    }
    while (i < text.length && !",]} \t\n\r".includes(text[i] ?? ""))
        i++;
    return i;
}
/**
 * For each path, the 1-based line where the value at that path starts — or, when the path does
 * not exist (a missing key), where its deepest existing ancestor starts. The text must already be
 * valid JSON. One pass; only containers on a wanted path are entered, the rest are skipped.
 */
export function jsonPathLines(text, paths) {
    const key = (path) => JSON.stringify(path);
    const wanted = new Set();
    for (const path of paths)
        for (let k = 0; k <= path.length; k++)
            wanted.add(key(path.slice(0, k)));
    const found = new Map();
    // Descends only along wanted paths, so its depth is bounded by the longest path asked for.
    const visit = (at, path) => {
        const here = key(path);
        if (!wanted.has(here))
            return skipValue(text, at);
        found.set(here, at);
        const open = text[at];
        if (open !== "{" && open !== "[")
            return skipValue(text, at);
        let i = skipWhitespace(text, at + 1);
        for (let index = 0; i < text.length && text[i] !== "}" && text[i] !== "]"; index++) {
            let member = index;
            if (open === "{") {
                const end = scanString(text, i);
                if (typeof end !== "number")
                    return text.length;
                member = JSON.parse(text.slice(i, end));
                i = skipWhitespace(text, skipWhitespace(text, end) + 1);
            }
            i = skipWhitespace(text, visit(i, [...path, member]));
            if (text[i] === ",")
                i = skipWhitespace(text, i + 1);
        }
        return i + 1;
    };
    visit(skipWhitespace(text, 0), []);
    const newlines = [];
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1))
        newlines.push(i);
    const lineOf = (offset) => {
        let lo = 0;
        let hi = newlines.length;
        while (lo < hi) {
            const mid = (lo + hi) >> 1;
            if (newlines[mid] < offset)
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo + 1;
    };
    return paths.map((path) => {
        for (let k = path.length; k >= 0; k--) {
            const offset = found.get(key(path.slice(0, k)));
            if (offset !== undefined)
                return lineOf(offset);
        }
        return 1;
    });
}
