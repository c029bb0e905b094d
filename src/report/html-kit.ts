/**
 * Small pieces every HTML section shares: the scrolling box, the phone-readable data table and
 * the number format.
 */
/** A table in a box that scrolls sideways if the table cannot be made to fit the page. */
export const wide = (table: string) => `<div class="wide">${table}</div>`;

/**
 * A data table that reads on a phone (see the CSS): a header row (`cols`), then rows whose cells
 * after the first carry their column's header as `data-label`. Headers and cells are HTML, already
 * escaped (so a header is safe in an attribute too).
 */
export function cardTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const head = `<tr class="cols">${headers.map((h) => `<th>${h}</th>`).join("")}</tr>`;
  const body = rows.map(
    (cells) =>
      `<tr>${cells.map((c, i) => (i === 0 || c === "" ? `<td>${c}</td>` : `<td data-label="${headers[i] ?? ""}">${c}</td>`)).join("")}</tr>`,
  );
  return wide(`<table class="cards">${head}${body.join("")}</table>`);
}

export const num = (v: number | null | undefined, digits = 4) =>
  v === null || v === undefined ? "–" : Math.abs(v) >= 100 ? Math.round(v).toString() : v.toFixed(digits);

/**
 * Text for an element's content (never an attribute): only `&`, `<` and `>` can end it there, so
 * quotes stay as they are — a run's JSON (answers, replies) is mostly quotes, and `&quot;` would
 * make it six times their size.
 */
export const escapeText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
