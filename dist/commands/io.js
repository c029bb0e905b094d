export const EXIT = { ok: 0, failed: 1, usage: 2, input: 2, blocked: 3, internal: 70 };
export function printJson(io, value) {
    io.out(`${JSON.stringify(value, null, 2)}\n`);
}
