/**
 * The literature service (LitIndex): indexed articles, papers and reports — their records,
 * full-text sections, extracted tables and citation metadata. Errors follow JSON:API:
 * `{errors: [{status, code, title, detail}]}`.
 */
import { bool, int, oneOf, out, pageSize, pageToken, str, type ToolSpec } from "../spec.ts";

const error = (status: string, code: string, title: string, detail: string) => ({
  errors: [{ status, code, title, detail }],
});
const INVALID = error("400", "invalid_parameter", "Invalid parameter", "{@message}");
const UNKNOWN_PAPER = error("404", "paper_not_found", "Not Found", "no indexed paper has id '{paper_id}'");
const PAPER_ID = str("paper identifier, e.g. P-2021-0187");

export const PAPERS: ToolSpec = {
  tool: "papers",
  description:
    "Literature service (LitIndex): search indexed journal articles, conference papers, theses and technical reports; read their abstracts, full-text sections and extracted tables; get publisher citation metadata.",
  endpoints: [
    {
      name: "search",
      description:
        "Search the literature index by free-text query with year, document-type and open-access filters; returns paper ids with title, first author, venue and year.",
      params: {
        query: str("free-text search terms: topic, material, property, author"),
        year_from: int("only papers published in or after this year", { minimum: 1900, maximum: 2100 }),
        year_to: int("only papers published in or before this year", { minimum: 1900, maximum: 2100 }),
        document_type: oneOf(
          ["journal_article", "conference_paper", "review", "thesis", "technical_report"],
          "only documents of this type",
        ),
        open_access: bool("only papers whose full text is open access"),
        sort: oneOf(
          ["relevance", "newest", "most_cited"],
          "order of the hits (default relevance)",
          "relevance",
        ),
        page_size: pageSize(50, 10),
        page_token: pageToken(),
      },
      required: ["query"],
      access: "read",
      outputs: [
        out("hits", "array", "paper_id, title, first_author, venue, year, document_type"),
        out("total_hits", "integer", "number of matching papers"),
        out("next_page_token", "string", "token of the next page, null on the last"),
      ],
      replies: { empty: { total_hits: 0, hits: [], next_page_token: null }, validation_error: INVALID },
    },
    {
      name: "retrieve",
      description:
        "Get a paper's record by paper id: title, authors, venue, year, abstract, keywords and the lists of its full-text sections and extracted tables.",
      params: { paper_id: PAPER_ID },
      required: ["paper_id"],
      access: "read",
      outputs: [
        out("paper", "object", "title, authors, venue, year, abstract, keywords"),
        out("sections", "array", "names of the full-text sections available"),
        out("tables", "array", "table numbers and captions available"),
        out("source_id", "string", "identifier of the paper record"),
      ],
      replies: { not_found: UNKNOWN_PAPER, validation_error: INVALID },
    },
    {
      name: "section",
      description:
        "Full text of one section of a paper (abstract, methods, results, discussion, conclusions, …), paragraph by paragraph and verbatim, for quoting with a paragraph reference.",
      params: {
        paper_id: PAPER_ID,
        section: oneOf(
          ["abstract", "introduction", "methods", "results", "discussion", "conclusions", "supplementary"],
          "which section",
        ),
        paragraph: int("only this paragraph number (1-based)", { minimum: 1 }),
      },
      required: ["paper_id", "section"],
      access: "read",
      outputs: [
        out("paragraphs", "array", "number and verbatim text of each paragraph"),
        out("source_id", "string", "identifier of the full-text version"),
      ],
      replies: {
        not_found: error(
          "404",
          "section_not_found",
          "Not Found",
          "paper '{paper_id}' has no section '{section}'",
        ),
        validation_error: INVALID,
      },
    },
    {
      name: "tables",
      description:
        "Data tables extracted from a paper's full text, each with its caption, column headers with units and rows as printed; optionally one table by its number.",
      params: {
        paper_id: PAPER_ID,
        table_number: int("only this table, e.g. 2 for Table 2", { minimum: 1 }),
      },
      required: ["paper_id"],
      access: "read",
      outputs: [
        out("tables", "array", "number, caption, columns (name, unit), rows"),
        out("source_id", "string", "identifier of the full-text version the tables come from"),
      ],
      replies: {
        not_found: UNKNOWN_PAPER,
        empty: { paper_id: "{paper_id}", tables: [] },
        validation_error: INVALID,
        unmatched: "not_found",
      },
    },
    {
      name: "citations",
      description:
        "Citation metadata of a paper as registered by its publisher: DOI, authors with affiliations, journal, volume, issue, pages, publication dates and licence, in the requested citation format.",
      params: {
        paper_id: PAPER_ID,
        format: oneOf(["csl_json", "bibtex", "ris"], "citation format (default csl_json)", "csl_json"),
      },
      required: ["paper_id"],
      access: "read",
      outputs: [
        out("doi", "string", "digital object identifier"),
        out("citation", "object", "the citation record in the requested format"),
        out("source_id", "string", "identifier of the publisher's metadata record"),
      ],
      replies: { not_found: UNKNOWN_PAPER, validation_error: INVALID },
    },
  ],
};
