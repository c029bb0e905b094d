/**
 * Run files are JSON Lines, appended one record at a time. A process killed mid-write leaves at
 * most one torn last line (no newline); readers drop it and report how many bytes it had.
 */
import { closeSync, fsyncSync, openSync, writeSync } from "node:fs";
import { inputError, issuePath } from "../../core/index.js";
import { runRecordSchema } from "./record.js";
export function parseRunBytes(bytes, file) {
    const end = bytes.lastIndexOf(0x0a) + 1;
    const text = bytes.subarray(0, end).toString("utf8");
    const records = [];
    const lines = [];
    const problems = [];
    text.split("\n").forEach((line, index) => {
        if (line.trim() === "")
            return;
        let value;
        try {
            value = JSON.parse(line);
        }
        catch {
            problems.push({ code: "invalid_run_record", file, line: index + 1, message: "not valid JSON" });
            return;
        }
        const parsed = runRecordSchema.safeParse(value);
        if (!parsed.success) {
            const issue = parsed.error.issues[0];
            problems.push({
                code: "invalid_run_record",
                file,
                line: index + 1,
                message: `${issue ? `${issuePath(issue.path)}: ${issue.message}` : "not a run record"}`,
            });
            return;
        }
        records.push(parsed.data);
        lines.push(index + 1);
    });
    if (problems.length > 0)
        throw inputError("run", "invalid_run_record", problems[0]?.message ?? "", { file, problems });
    return { records, lines, completeBytes: end, tornBytes: bytes.length - end };
}
/** Appends whole lines; each record reaches the operating system before the next episode starts. */
export class RunWriter {
    fd;
    written = 0;
    constructor(path) {
        this.fd = openSync(path, "a");
    }
    append(record) {
        const line = Buffer.from(`${JSON.stringify(record)}\n`, "utf8");
        let offset = 0;
        while (offset < line.length)
            offset += writeSync(this.fd, line, offset);
        // Durable against power loss every 50 records and at the end; a killed process loses nothing written.
        if (++this.written % 50 === 0)
            fsyncSync(this.fd);
    }
    close() {
        fsyncSync(this.fd);
        closeSync(this.fd);
    }
}
