import { jsonEqual } from "../../core/index.js";
const TYPE_CHECKS = {
    string: (v) => typeof v === "string",
    integer: (v) => typeof v === "number" && Number.isInteger(v),
    number: (v) => typeof v === "number" && Number.isFinite(v),
    boolean: (v) => typeof v === "boolean",
    array: (v) => Array.isArray(v),
    object: (v) => typeof v === "object" && v !== null && !Array.isArray(v),
};
/** Unexpected, then missing, then wrong-typed arguments (the executor's order). */
export function schemaProblem(endpoint, args) {
    if (typeof args !== "object" || args === null || Array.isArray(args))
        return { code: "invalid_type", message: "arguments must be a JSON object" };
    const record = args;
    const { properties, required } = endpoint.parameters;
    const unexpected = Object.keys(record).filter((k) => !Object.hasOwn(properties, k));
    if (unexpected.length > 0)
        return { code: "unexpected_arguments", message: `unexpected argument(s): ${unexpected.join(", ")}` };
    const missing = required.filter((k) => !Object.hasOwn(record, k));
    if (missing.length > 0)
        return {
            code: "missing_required_argument",
            message: `missing required argument(s): ${missing.join(", ")}`,
        };
    for (const [key, value] of Object.entries(record)) {
        const type = properties[key]?.type;
        const check = typeof type === "string" ? TYPE_CHECKS[type] : undefined;
        if (check && !check(value))
            return { code: "invalid_type", message: `${key} must be ${type}` };
    }
    return null;
}
/** Whether every argument satisfies its rule; `state` holds facts observed earlier in the episode. */
export function rulesHold(rules, args, state) {
    return Object.entries(rules).every(([name, rule]) => {
        if (!Object.hasOwn(args, name))
            return false;
        const value = args[name];
        if ("eq" in rule)
            return jsonEqual(value, rule.eq);
        if ("nonempty" in rule)
            return nonEmpty(value);
        if ("state" in rule)
            return state.has(rule.state) && jsonEqual(value, state.get(rule.state));
        return (typeof value === "string" &&
            state.has(rule.contains_state) &&
            value.includes(String(state.get(rule.contains_state))));
    });
}
function nonEmpty(value) {
    if (typeof value === "string")
        return value.trim() !== "";
    if (Array.isArray(value))
        return value.length > 0;
    if (typeof value === "object" && value !== null)
        return Object.keys(value).length > 0;
    return value !== null && value !== undefined;
}
