/** The report: HTML and Markdown renderings of a summary. */
export { renderHtml } from "./html.ts";
export { renderMarkdown } from "./markdown.ts";
export { SUMMARY_FORMAT, type Summary } from "./types.ts";
export { summaryShape } from "./schema.ts";
