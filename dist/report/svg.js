/** Small, dependency-free SVG charts for the static report (no browser, no network). */
const escape = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
/** A forest plot of paired deltas with their intervals, a zero line and each row's margin. */
export function forestPlot(rows, title) {
    const width = 720;
    const rowHeight = 22;
    const left = 300;
    const right = 40;
    const top = 30;
    const height = top + rows.length * rowHeight + 30;
    const values = rows
        .flatMap((r) => [r.low, r.high, r.point, r.margin, r.alt?.low ?? null, r.alt?.high ?? null])
        .filter((v) => v !== null);
    const lo = Math.min(-0.05, ...values);
    const hi = Math.max(0.05, ...values);
    const x = (v) => left + ((v - lo) / (hi - lo)) * (width - left - right);
    const parts = [
        `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${escape(title)}" class="plot forest" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">`,
        `<title>${escape(title)}</title>`,
    ];
    parts.push(`<line x1="${x(0)}" y1="${top - 10}" x2="${x(0)}" y2="${height - 20}" stroke="#888" />`);
    rows.forEach((r, i) => {
        const y = top + i * rowHeight + rowHeight / 2;
        parts.push(`<text x="${left - 8}" y="${y + 4}" text-anchor="end" font-size="12">${escape(r.label)}</text>`);
        parts.push(`<line x1="${x(r.margin)}" y1="${y - 9}" x2="${x(r.margin)}" y2="${y + 9}" stroke="#c33" stroke-dasharray="3,2" />`);
        if (r.low !== null && r.high !== null)
            parts.push(`<line x1="${x(r.low)}" y1="${y}" x2="${x(r.high)}" y2="${y}" stroke="#246" stroke-width="2" />`);
        // A calibrated bound that is null beside a defined estimate is unbounded: drawn to the plot's edge, dashed.
        if (r.alt && r.point !== null && (r.alt.low !== null || r.alt.high !== null)) {
            const open = r.alt.low === null || r.alt.high === null;
            parts.push(`<line x1="${x(r.alt.low ?? lo)}" y1="${y + 5}" x2="${x(r.alt.high ?? hi)}" y2="${y + 5}" stroke="#999" stroke-width="1.5"${open ? ' stroke-dasharray="4,2"' : ""} />`);
        }
        if (r.point !== null) {
            const ok = r.passSide === "above" ? r.point >= r.margin : r.point <= r.margin;
            parts.push(`<circle cx="${x(r.point)}" cy="${y}" r="4" fill="${ok ? "#2a7" : "#c33"}"><title>${escape(`${r.label}: ${r.point.toFixed(4)} [${r.low?.toFixed(4) ?? "–"}, ${r.high?.toFixed(4) ?? "–"}]`)}</title></circle>`);
        }
    });
    for (const tick of [lo, lo / 2, 0, hi / 2, hi])
        parts.push(`<text x="${x(tick)}" y="${height - 6}" text-anchor="middle" font-size="11">${tick.toFixed(3)}</text>`);
    parts.push("</svg>");
    return parts.join("");
}
/** Grouped horizontal bars: one group per label, one bar per series. */
export function barChart(groups, title) {
    const width = 720;
    const left = 200;
    const barHeight = 12;
    const series = [...new Set(groups.flatMap((g) => g.values.map((v) => v.series)))];
    const colours = ["#246", "#8ac", "#c84", "#7a5", "#a5a"];
    const groupHeight = series.length * barHeight + 10;
    const height = 30 + groups.length * groupHeight + 20;
    const max = Math.max(1, ...groups.flatMap((g) => g.values.map((v) => v.value)));
    const parts = [
        `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${escape(title)}" class="plot bars" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">`,
        `<title>${escape(title)}</title>`,
    ];
    series.forEach((s, i) => parts.push(`<rect x="${left + i * 130}" y="4" width="10" height="10" fill="${colours[i % colours.length]}" /><text x="${left + i * 130 + 14}" y="13" font-size="11">${escape(s)}</text>`));
    groups.forEach((g, gi) => {
        const y0 = 30 + gi * groupHeight;
        parts.push(`<text x="${left - 8}" y="${y0 + groupHeight / 2}" text-anchor="end" font-size="12">${escape(g.label)}</text>`);
        g.values.forEach((v) => {
            const si = series.indexOf(v.series);
            const w = (v.value / max) * (width - left - 90);
            parts.push(`<rect x="${left}" y="${y0 + si * barHeight}" width="${w.toFixed(1)}" height="${barHeight - 2}" fill="${colours[si % colours.length]}"><title>${escape(`${g.label} ${v.series}: ${Math.round(v.value)}`)}</title></rect>`);
            parts.push(`<text x="${left + w + 4}" y="${y0 + si * barHeight + barHeight - 3}" font-size="10">${Math.round(v.value)}</text>`);
        });
    });
    parts.push("</svg>");
    return parts.join("");
}
export { escape };
