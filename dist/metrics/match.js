import { isNumericValue } from "../authoring/index.js";
import { jsonEqual } from "../core/index.js";
/** unit_ok: a unitless target wants no unit; otherwise the label must be accepted, exactly. */
export function unitOk(f, e, accepted) {
    if (e.unit === null)
        return f.unit === null;
    return f.unit !== null && (accepted ?? [e.unit]).includes(f.unit);
}
/**
 * value_ok: convert f's value to e's unit when f names a different, convertible label; then
 * numbers within tolerance (either bound passes, both inclusive; exact without a tolerance),
 * lists element by element, anything else by deep equality.
 */
export function valueOk(f, e, tolerance, units) {
    const value = convertValue(f.value, f.unit, e.unit, units);
    if (isNumericValue(e.value))
        return isNumericValue(value) && withinTolerance(value, e.value, tolerance);
    if (Array.isArray(e.value)) {
        if (!Array.isArray(value) || value.length !== e.value.length)
            return false;
        return e.value.every((expected, i) => isNumericValue(expected)
            ? isNumericValue(value[i]) && withinTolerance(value[i], expected, tolerance)
            : jsonEqual(value[i], expected));
    }
    return jsonEqual(value, e.value);
}
/** source_ok: the required source, and an allowed one. */
export function sourceOk(sourceId, e, allowed) {
    return sourceId === e.source_id && allowed.has(sourceId);
}
/**
 * Both bounds inclusive. The slack of two units in the last place of the operands keeps a value
 * written exactly at the bound (1.01 against 1 ± 0.01) from failing on binary rounding alone.
 */
export function withinTolerance(actual, expected, tolerance) {
    const diff = Math.abs(actual - expected);
    if (tolerance === undefined)
        return diff === 0;
    const slack = 2 * Number.EPSILON * Math.max(Math.abs(actual), Math.abs(expected));
    if (tolerance.absolute !== undefined && diff <= tolerance.absolute + slack)
        return true;
    return (tolerance.relative !== undefined &&
        diff <= tolerance.relative * Math.max(Math.abs(expected), 1e-12) + slack);
}
/**
 * Converted numbers are rounded to 12 significant digits: 117400 MPa is 117.4 GPa, not
 * 117.39999999999999, so conversion alone never costs an exact match.
 */
function convertValue(value, from, to, units) {
    if (from === null || to === null || from === to || !units.convertible(from, to))
        return value;
    const one = (v) => {
        if (!isNumericValue(v))
            return v;
        const converted = units.convert(v, from, to);
        return converted === null ? v : Number(converted.toPrecision(12));
    };
    return Array.isArray(value) ? value.map(one) : one(value);
}
