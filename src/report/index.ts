/** The report: HTML and Markdown renderings of a summary, and the headline `score` prints. */
export { renderHtml } from "./html.ts";
export { type EpisodeRecord, type EpisodeSources, type RouteEntry } from "./episode-sources.ts";
export { renderMarkdown } from "./markdown.ts";
export { renderHeadline } from "./headline.ts";
/** The page kit other pages that look like the report reuse (`fabench compare`). */
export { CSS } from "./html-style.ts";
export { cardTable, num, wide } from "./html-kit.ts";
export { escape } from "./svg.ts";
