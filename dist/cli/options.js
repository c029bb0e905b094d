import { usageError } from "../core/index.js";
export const DEFAULTS = {
    protocol: "manifests/preregistration.json",
    plan: "manifests/authoring-plan.json",
    catalogs: "tasks/catalogs",
    corpus: "tasks/final-answer-corpus.json",
    authored: "tasks/authored",
    conditionManifest: "manifests/condition-manifest.json",
    conveyor: "manifests/conveyor.json",
};
export function positiveInt(flag) {
    return (text) => {
        if (!/^[1-9]\d*$/.test(text))
            throw usageError("bad_number", `${flag} takes a positive whole number, not ${text}`);
        return Number(text);
    };
}
export function nonNegativeInt(flag) {
    return (text) => {
        if (!/^\d+$/.test(text))
            throw usageError("bad_number", `${flag} takes a whole number ≥ 0, not ${text}`);
        return Number(text);
    };
}
export function nonNegative(flag) {
    return (text) => {
        const value = Number(text);
        if (text.trim() === "" || !Number.isFinite(value) || value < 0)
            throw usageError("bad_number", `${flag} takes a number ≥ 0, not ${text}`);
        return value;
    };
}
export function list(text) {
    return text
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== "");
}
/** For repeatable options. */
export function collect(value, previous) {
    return [...previous, value];
}
/** A group without a subcommand is an incomplete command line: show its help on stderr, exit 2. */
export function group(parent, name, description) {
    const command = parent.command(name).description(description);
    command.action(() => command.help({ error: true }));
    return command;
}
