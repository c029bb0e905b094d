/** The report: HTML and Markdown renderings of a summary. */
export { renderHtml } from "./html.ts";
export { renderMarkdown } from "./markdown.ts";
export { SUMMARY_FORMAT, type Summary } from "./types.ts";
export { summaryJsonSchema, summarySchema } from "./schema.ts";
