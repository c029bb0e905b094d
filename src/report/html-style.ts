/**
 * The report's one inline style sheet (the page has no other CSS and no script).
 */
/**
 * Nothing may be wider than the window: text breaks at spaces where it can and anywhere in a
 * hash, JSON or code (`overflow-wrap:anywhere` also lets a table cell shrink below its longest
 * token); answers keep their line breaks but wrap (`pre-wrap`); the provenance table has a fixed
 * layout; the SVG plots scale down; and a table that still cannot fit (many columns at 800 px)
 * scrolls inside its `.wide` box instead of widening the page.
 *
 * At 760 px and below (a phone; also where the 720-unit plots would start to shrink) the gate
 * table and the data tables (`.cards`) are a card per row, each cell labelled with its column
 * (`data-label`), the gate's verdict rows come first (flex `order`), so every condition's verdict
 * is on screen without a sideways scroll, and the narrow plots replace the wide ones.
 * `.caution` is a pass beside a failed baseline: amber and marked ⚠, never the green ✓.
 */
export const CSS = `*,*::before,*::after{box-sizing:border-box}
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1100px;color:#222;padding:0 1rem;overflow-wrap:break-word}
h1{font-size:1.6rem}h2{margin-top:2.2rem;border-bottom:1px solid #ddd}table{border-collapse:collapse;margin:.6rem 0}
td,th{border:1px solid #ddd;padding:.25rem .5rem;text-align:right}th:first-child,td:first-child{text-align:left}
.verdict{display:inline-block;padding:.3rem .8rem;border-radius:4px;color:#fff;font-weight:700}
.pilot{font-size:.9rem;padding:.15rem .5rem;border-radius:4px;background:#c33;color:#fff;vertical-align:middle}.pilot-note{border-left:4px solid #c33;padding:.3rem .6rem;background:#fdf0f0}
.PASS{background:#2a7}.FAIL{background:#c33}.BLOCKED{background:#b70}.ok{color:#2a7}.no{color:#c33}.caution{color:#b70}
.warn{border-left:4px solid #b70;padding:.3rem .6rem;background:#fdf6e8;font-weight:600}
code,pre{font-size:12px;overflow-wrap:anywhere}pre{white-space:pre-wrap;margin:.4rem 0}
details{margin:.2rem 0}summary{cursor:pointer}.muted{color:#777}
.wide{max-width:100%;overflow-x:auto}svg.plot{display:block;max-width:100%;height:auto}svg.plot.narrow{display:none}
table.provenance{table-layout:fixed;width:100%}table.provenance td{text-align:left}table.provenance td:first-child{width:15rem}
@media (max-width:1000px){td,th{padding:.2rem .3rem}th{font-size:12px}table.provenance td:first-child{width:9rem}}
@media (max-width:760px){svg.plot{display:none}svg.plot.narrow{display:block}body{margin:1rem auto}table.provenance td:first-child{width:6rem}
table.cards,table.cards tbody,table.cards tr,table.cards td,table.cards th{display:block}table.cards{width:100%;margin:.3rem 0}
table.cards tbody{display:flex;flex-direction:column}table.cards tr.cols{display:none}table.gate tr.verdicts{order:-1}
table.cards tr{border:1px solid #ddd;border-radius:4px;margin:.25rem 0;padding:.2rem .5rem}
table.cards td,table.cards th{border:0;padding:.1rem 0;text-align:left;font-size:14px}table.cards tr>:first-child{font-weight:700}
table.cards [data-label]::before{content:attr(data-label) ": ";font-weight:600;color:#222}table.cards td:empty,table.gate .verdicts>:nth-child(2){display:none}}`;
