/** Instants written as ISO 8601 date-times: what an API comparing times compares, whatever the spelling. */
/**
 * RFC 3339 / ISO 8601 date-time with a time zone (`Z` or `±hh:mm`), seconds and fractions optional:
 * what an API that takes `format: date-time` accepts. A date-time without a zone names no instant.
 */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})$/;

/** The instant an ISO 8601 date-time names, in epoch milliseconds; null when it names none. */
export function instantOf(value: unknown): number | null {
  if (typeof value !== "string") return null;
  const m = DATE_TIME.exec(value.trim());
  if (m === null) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m as unknown as string[];
  const month = Number(mo);
  const day = Number(d);
  if (
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > 31 ||
    Number(h) > 23 ||
    Number(mi) > 59 ||
    Number(s ?? 0) > 59
  )
    return null;
  const utc = Date.UTC(
    Number(y),
    month - 1,
    day,
    Number(h),
    Number(mi),
    Number(s ?? 0),
    Math.round(Number(frac ?? 0) * 1000),
  );
  // A day the month does not have (2026-02-30) rolls over in Date.UTC: refuse it.
  if (new Date(utc).getUTCDate() !== day) return null;
  if (zone === undefined || zone === "Z" || zone === "z") return utc;
  const sign = zone.startsWith("-") ? -1 : 1;
  const digits = zone.slice(1).replace(":", "");
  return utc - sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
}

/** Whether two date-times name the same instant (a value that names none is never the same). */
export function sameInstant(a: unknown, b: unknown): boolean {
  const x = instantOf(a);
  return x !== null && x === instantOf(b);
}
