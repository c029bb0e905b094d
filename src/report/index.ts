/** The report: HTML and Markdown renderings of a summary, and the headline `score` prints. */
export { renderHtml } from "./html.ts";
export { type EpisodeRecord, type EpisodeSources, type RouteEntry } from "./episode-sources.ts";
export { renderMarkdown } from "./markdown.ts";
export { renderHeadline } from "./headline.ts";
