/**
 * Reading JSON and JSONL inputs with errors that name the file and line. Everything here throws
 * a FabenchError of kind "input" (exit 2): the input could not be read, so nothing was checked.
 */
import { readFileSync, statSync } from "node:fs";
import { inputError } from "./errors.js";
import { locateJsonError } from "./json-syntax.js";
import { LineIndex } from "./text.js";
const BLANK = /^[ \t]*$/;
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
export function readBytes(path, stage) {
    let isDirectory = false;
    try {
        isDirectory = statSync(path).isDirectory();
    }
    catch (error) {
        throw inputError(stage, "unreadable_file", describeFsError(error), { file: path });
    }
    if (isDirectory)
        throw inputError(stage, "unreadable_file", "is a folder, not a file", { file: path });
    try {
        return readFileSync(path);
    }
    catch (error) {
        throw inputError(stage, "unreadable_file", describeFsError(error), { file: path });
    }
}
/** Decodes UTF-8 strictly; a byte-order mark is dropped (editors add it, JSON forbids it). */
export function decodeUtf8(bytes, file, stage) {
    try {
        const text = utf8.decode(bytes);
        return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    }
    catch {
        const offset = firstInvalidUtf8(bytes);
        const line = countNewlines(bytes, offset) + 1;
        throw inputError(stage, "invalid_utf8", `not valid UTF-8 (byte ${offset})`, { file, line });
    }
}
/** Parses a whole file as one JSON value. */
export function parseJsonText(text, file, stage) {
    if (text.trim() === "")
        throw inputError(stage, "empty_file", "the file is empty", { file });
    try {
        return JSON.parse(text);
    }
    catch {
        throw jsonSyntaxProblem(text, file, stage);
    }
}
/** Parses JSON Lines; blank lines are skipped; every bad line is reported, not only the first. */
export function parseJsonLines(text, file, stage) {
    const rows = [];
    const problems = [];
    const lines = text.split("\n");
    lines.forEach((raw, index) => {
        const content = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
        if (BLANK.test(content))
            return;
        try {
            rows.push({ line: index + 1, value: JSON.parse(content) });
        }
        catch {
            // A final line without its newline that stops mid-value is what a killed writer leaves.
            const unterminatedLastLine = index === lines.length - 1;
            const found = locateJsonError(content);
            const reason = found?.reason ?? "not valid JSON";
            const endsEarly = reason === "unexpected end of input" || reason === "unterminated string";
            const hint = unterminatedLastLine && endsEarly ? " (the line is truncated)" : "";
            problems.push({
                code: "invalid_json",
                message: `not valid JSON: ${reason}${found ? ` at column ${found.offset + 1}` : ""}${hint}`,
                file,
                line: index + 1,
            });
        }
    });
    if (problems.length > 0) {
        const first = problems[0];
        throw inputError(stage, first.code, first.message, { file, problems });
    }
    if (rows.length === 0)
        throw inputError(stage, "empty_file", "the file has no JSON lines", { file });
    return rows;
}
function jsonSyntaxProblem(text, file, stage) {
    const found = locateJsonError(text);
    const offset = found?.offset ?? 0;
    const lines = new LineIndex(text);
    return inputError(stage, "invalid_json", `not valid JSON: ${found?.reason ?? "unreadable"} at column ${lines.columnOf(offset)}`, { file, line: lines.lineOf(offset) });
}
function describeFsError(error) {
    const code = error?.code;
    if (code === "ENOENT")
        return "no such file";
    if (code === "EACCES")
        return "permission denied";
    if (code === "EISDIR")
        return "is a folder, not a file";
    return `cannot read (${code ?? "unknown error"})`;
}
function countNewlines(bytes, end) {
    let count = 0;
    for (let i = 0; i < end; i++)
        if (bytes[i] === 0x0a)
            count++;
    return count;
}
/** Offset of the first byte that breaks UTF-8 (overlongs, surrogates and > U+10FFFF included). */
function firstInvalidUtf8(bytes) {
    let i = 0;
    while (i < bytes.length) {
        const b = bytes[i] ?? 0;
        let need = 0;
        let min = 0;
        if (b < 0x80) {
            i++;
            continue;
        }
        else if (b >= 0xc2 && b <= 0xdf)
            [need, min] = [1, 0x80];
        else if (b >= 0xe0 && b <= 0xef)
            [need, min] = [2, 0x800];
        else if (b >= 0xf0 && b <= 0xf4)
            [need, min] = [3, 0x10000];
        else
            return i;
        let cp = b & (0x3f >> need);
        for (let k = 1; k <= need; k++) {
            const c = bytes[i + k];
            if (c === undefined || (c & 0xc0) !== 0x80)
                return i;
            cp = (cp << 6) | (c & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return i;
        i += need + 1;
    }
    return i;
}
