/**
 * Atomic file writes: a temporary file in the same folder, fsync, rename, then fsync the folder,
 * so a reader sees the old file or the new one and never half of either.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
let counter = 0;
export function writeFileAtomic(path, data) {
    const folder = dirname(path);
    mkdirSync(folder, { recursive: true });
    const temporary = join(folder, `.${basename(path)}.tmp-${process.pid}-${counter++}`);
    try {
        const fd = openSync(temporary, "wx");
        try {
            const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
            let written = 0;
            while (written < bytes.length)
                written += writeSync(fd, bytes, written, bytes.length - written);
            fsyncSync(fd);
        }
        finally {
            closeSync(fd);
        }
        renameSync(temporary, path);
    }
    catch (error) {
        rmSync(temporary, { force: true });
        throw error;
    }
    syncFolder(folder);
}
/** Written JSON files: 2-space indent, UTF-8, trailing newline. */
export function formatJsonFile(value) {
    return `${JSON.stringify(value, null, 2)}\n`;
}
export function writeJsonAtomic(path, value) {
    writeFileAtomic(path, formatJsonFile(value));
}
function syncFolder(folder) {
    // Makes the rename durable; some file systems refuse fsync on a folder, which is harmless here.
    try {
        const fd = openSync(folder, "r");
        try {
            fsyncSync(fd);
        }
        finally {
            closeSync(fd);
        }
    }
    catch {
        /* best effort */
    }
}
