/**
 * Hard negatives of the literature service: a preprint server, a reading assistant, a shared
 * reference library, machine translation, a frozen index and OCR'd tables — each answering about
 * the same paper ids with text or numbers that are not the published record.
 */
import { replyStyle } from "../reply-styles.ts";
import { int, oneOf, out, pageSize, pageToken, str, type ToolSpec } from "../spec.ts";

const PAPER_ID = str("paper identifier, e.g. P-2021-0187");
const SECTIONS = ["abstract", "introduction", "methods", "results", "discussion", "conclusions"];

const preprint = replyStyle("jsonapi");
export const PREPRINTS: ToolSpec = {
  tool: "preprints",
  description:
    "Preprint server mirror: manuscripts as their authors posted them before peer review; the published version can differ in data, wording and conclusions.",
  endpoints: [
    {
      name: "search",
      imitates: "papers.search",
      description:
        "Search posted preprints by free-text query and posting year; hits are manuscript versions, linked to a paper id where one was later published.",
      params: {
        query: str("free-text search terms"),
        year_from: int("posted in or after this year"),
        page_size: pageSize(50, 10),
        page_token: pageToken(),
      },
      required: ["query"],
      access: "read",
      outputs: [out("hits", "array", "preprint_id, paper_id, title, posted_on, version")],
      replies: preprint.list("hits"),
    },
    {
      name: "retrieve",
      imitates: "papers.retrieve",
      description:
        "Get the preprint of a paper by paper id: the manuscript as first posted, with its abstract and findings before peer review and without the published corrections.",
      params: {
        paper_id: PAPER_ID,
        version: int("preprint version (default 1, the first posted)", { minimum: 1, default: 1 }),
      },
      required: ["paper_id"],
      access: "read",
      outputs: [
        out("manuscript", "object", "title, authors, abstract, posted_on, version"),
        out("text", "string", "manuscript text"),
      ],
      replies: preprint.get("preprint", "paper_id"),
    },
  ],
};

const assist = replyStyle("google");
export const PAPERS_ASSIST: ToolSpec = {
  tool: "papers_assist",
  description:
    "Reading assistant: machine-generated summaries of papers and answers to questions about them.",
  endpoints: [
    {
      name: "summarize",
      imitates: "papers.section",
      description:
        "Generate a plain-language summary of a paper or one of its sections: generated text that paraphrases and rounds, not a quotation of the paper.",
      params: {
        paper_id: PAPER_ID,
        section: oneOf(SECTIONS, "summarise only this section"),
        length: oneOf(["one_sentence", "short", "detailed"], "summary length (default short)", "short"),
      },
      required: ["paper_id"],
      access: "read",
      outputs: [out("summary", "string", "generated summary"), out("model", "string", "model that wrote it")],
      replies: assist.get("paper", "paper_id"),
    },
  ],
};

const library = replyStyle("slack");
export const REFERENCE_LIBRARY: ToolSpec = {
  tool: "reference_library",
  description:
    "Shared reference library: citations as colleagues entered them into the group's reference manager, with their notes and tags.",
  endpoints: [
    {
      name: "citation",
      imitates: "papers.citations",
      description:
        "A colleague-entered citation of a paper from the shared library: DOI, year, volume and pages as typed by hand, never checked against the publisher.",
      params: {
        paper_id: PAPER_ID,
        format: oneOf(["bibtex", "ris"], "export format (default bibtex)", "bibtex"),
      },
      required: ["paper_id"],
      access: "read",
      outputs: [
        out("entry", "object", "doi, title, year, volume, pages as entered"),
        out("added_by", "string", "who entered it"),
      ],
      replies: library.get("library entry", "paper_id"),
    },
  ],
};

const translate = replyStyle("problem");
export const PAPERS_TRANSLATE: ToolSpec = {
  tool: "papers_translate",
  description: "Machine translation of papers into the reader's language, section by section.",
  endpoints: [
    {
      name: "section",
      imitates: "papers.section",
      description:
        "Machine translation of one section of a paper into a target language; wording, decimal marks and unit spellings differ from the original text.",
      params: {
        paper_id: PAPER_ID,
        section: oneOf(SECTIONS, "which section"),
        target_language: oneOf(["en", "de", "es", "fr", "ja", "ko", "zh"], "language to translate into"),
      },
      required: ["paper_id", "section", "target_language"],
      access: "read",
      outputs: [out("translated_paragraphs", "array", "number and translated text of each paragraph")],
      replies: translate.get("paper section", "paper_id"),
    },
  ],
};

const frozen = replyStyle("fault");
export const PAPERS_INDEX_2018: ToolSpec = {
  tool: "papers_index_2018",
  description:
    "Legacy literature index as frozen in 2018 when LitIndex replaced it; kept for old saved searches.",
  endpoints: [
    {
      name: "search",
      imitates: "papers.search",
      description:
        "Search the literature index as frozen in 2018 by free-text query; nothing published since is found and citation counts stop in 2018.",
      params: { query: str("free-text search terms"), page_size: pageSize(50, 10) },
      required: ["query"],
      access: "read",
      outputs: [out("hits", "array", "paper_id, title, year, citations_2018")],
      replies: frozen.list("hits"),
    },
  ],
};

const ocr = replyStyle("odata");
export const PAPERS_OCR: ToolSpec = {
  tool: "papers_ocr",
  description:
    "OCR extraction from scanned PDFs of papers, for documents without a machine-readable full text.",
  endpoints: [
    {
      name: "tables",
      imitates: "papers.tables",
      description:
        "Tables read by OCR from a paper's scanned PDF, unverified: digits, decimal marks, superscripts and units are sometimes misread.",
      params: { paper_id: PAPER_ID, table_number: int("only this table", { minimum: 1 }) },
      required: ["paper_id"],
      access: "read",
      outputs: [out("tables", "array", "number, caption, cells, ocr_confidence")],
      replies: ocr.get("scanned paper", "paper_id"),
    },
  ],
};
