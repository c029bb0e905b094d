/** The report: HTML and Markdown renderings of a summary, and the headline `score` prints. */
export { renderHtml } from "./html.js";
export { renderMarkdown } from "./markdown.js";
export { renderHeadline } from "./headline.js";
