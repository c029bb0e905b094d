/**
 * Distractors from the organisation's documents: document management, the intranet wiki, patents
 * and document translation. Patents and the wiki sound like literature; none of them is.
 */
import { replyStyle } from "../reply-styles.ts";
import { date, oneOf, out, pageSize, pageToken, str, strList, type ToolSpec } from "../spec.ts";

const dms = replyStyle("jsonapi");
export const DOCUMENTS: ToolSpec = {
  tool: "documents",
  description:
    "Controlled document management: procedures, work instructions and forms under version control with check-out and approval.",
  endpoints: [
    {
      name: "search_documents",
      description: "Search controlled documents (SOPs, work instructions, forms) by title, number or owner.",
      params: {
        query: str("title words or document number"),
        doc_type: oneOf(["sop", "work_instruction", "form", "policy", "template"], "document type"),
        page_size: pageSize(100, 20),
        page_token: pageToken(),
      },
      required: ["query"],
      access: "read",
      outputs: [out("documents", "array", "doc_number, title, type, revision, owner, effective_on")],
      replies: dms.list("documents"),
    },
    {
      name: "document",
      description:
        "A controlled document's metadata: current revision, approvers, effective date, review due date and download link.",
      params: { doc_number: str("document number, e.g. SOP-QA-0042") },
      required: ["doc_number"],
      access: "read",
      outputs: [
        out("document", "object", "title, revision, approvers, effective_on, review_due, download_url"),
      ],
      replies: dms.get("document", "doc_number"),
    },
    {
      name: "versions",
      description: "Revision history of a controlled document with change summaries and approvers.",
      params: { doc_number: str("document number") },
      required: ["doc_number"],
      access: "read",
      outputs: [out("revisions", "array", "revision, approved_on, approvers, change_summary")],
      replies: dms.get("document", "doc_number"),
    },
    {
      name: "checkout",
      description:
        "Check out a controlled document for editing; others cannot edit it until it is checked in.",
      params: { doc_number: str("document number") },
      required: ["doc_number"],
      access: "write",
      outputs: [out("checked_out_by", "string", "you")],
      replies: dms.write({ doc_number: "{doc_number}", checked_out: true }, ["document", "doc_number"]),
    },
    {
      name: "checkin",
      description: "Check in an edited document as a new draft revision and send it for approval.",
      params: {
        doc_number: str("document number"),
        file_id: str("uploaded file"),
        change_summary: str("what changed"),
      },
      required: ["doc_number", "file_id", "change_summary"],
      access: "write",
      outputs: [out("draft_revision", "string", "new draft revision")],
      replies: dms.write({ doc_number: "{doc_number}", draft_revision: "D-{@id}" }, [
        "document",
        "doc_number",
      ]),
    },
    {
      name: "delete_document",
      description: "Delete a controlled document that never became effective, with all its draft revisions.",
      params: { doc_number: str("document number"), reason: str("reason") },
      required: ["doc_number", "reason"],
      access: "destructive",
      outputs: [out("deleted", "boolean", "true")],
      replies: dms.write({ doc_number: "{doc_number}", deleted: true }, ["document", "doc_number"]),
    },
  ],
};

const wiki = replyStyle("google");
export const WIKI: ToolSpec = {
  tool: "wiki",
  description: "Intranet wiki: team pages, how-tos and meeting notes written by staff.",
  endpoints: [
    {
      name: "search_pages",
      description: "Full-text search of wiki pages in a space, with title, space and last editor.",
      params: { query: str("search words"), space: str("wiki space key, e.g. 'MATLAB'") },
      required: ["query"],
      access: "read",
      outputs: [out("pages", "array", "page_id, title, space, last_edited_by, updated_at")],
      replies: wiki.list("pages"),
    },
    {
      name: "page",
      description: "A wiki page's body in markdown, with its labels and attachments.",
      params: { page_id: str("page id") },
      required: ["page_id"],
      access: "read",
      outputs: [out("body", "string", "markdown body"), out("labels", "array", "labels")],
      replies: wiki.get("page", "page_id"),
    },
    {
      name: "edit_page",
      description: "Replace a wiki page's body with new markdown and a change comment.",
      params: { page_id: str("page id"), body: str("new markdown body"), comment: str("change comment") },
      required: ["page_id", "body"],
      access: "write",
      outputs: [out("version", "integer", "new page version")],
      replies: wiki.write({ pageId: "{page_id}", version: 2 }, ["page", "page_id"]),
    },
    {
      name: "page_history",
      description: "Edit history of a wiki page: versions, editors and change comments.",
      params: { page_id: str("page id") },
      required: ["page_id"],
      access: "read",
      outputs: [out("versions", "array", "version, edited_by, edited_at, comment")],
      replies: wiki.get("page", "page_id"),
    },
  ],
};

const ip = replyStyle("fault");
export const PATENTS: ToolSpec = {
  tool: "patents",
  description:
    "Patent information: published applications and granted patents, their families and legal status, for freedom-to-operate checks.",
  endpoints: [
    {
      name: "search_patents",
      description: "Search patent publications by keywords, CPC class, applicant and priority date.",
      params: {
        query: str("keywords"),
        cpc: str("CPC class, e.g. 'C22C 14/00'"),
        applicant: str("applicant"),
        priority_from: date("priority on or after"),
      },
      required: ["query"],
      access: "read",
      outputs: [out("publications", "array", "publication_number, title, applicant, priority_date, kind")],
      replies: ip.list("publications"),
    },
    {
      name: "patent",
      description: "A patent publication's bibliographic data, abstract and claims.",
      params: { publication_number: str("publication number, e.g. EP3456789A1") },
      required: ["publication_number"],
      access: "read",
      outputs: [out("publication", "object", "title, applicant, inventors, abstract, claims")],
      replies: ip.get("patent publication", "publication_number"),
    },
    {
      name: "family",
      description: "Members of a patent family in all jurisdictions with publication and grant dates.",
      params: { publication_number: str("any member's publication number") },
      required: ["publication_number"],
      access: "read",
      outputs: [out("members", "array", "publication_number, country, published_on, granted_on")],
      replies: ip.get("patent family", "publication_number"),
    },
    {
      name: "legal_status",
      description:
        "Legal status events of a patent in one jurisdiction: grant, renewal fees, lapse, opposition.",
      params: { publication_number: str("publication number"), jurisdiction: str("country code, e.g. 'DE'") },
      required: ["publication_number"],
      access: "read",
      outputs: [out("events", "array", "date, event, effect")],
      replies: ip.get("patent publication", "publication_number"),
    },
  ],
};

const tr = replyStyle("slack");
export const DOC_TRANSLATION: ToolSpec = {
  tool: "doc_translation",
  description:
    "Document translation service: office documents translated by agencies or machine, with turnaround times.",
  endpoints: [
    {
      name: "order_translation",
      description:
        "Order the translation of an uploaded office document into one or more languages, by machine or human translator.",
      params: {
        file_id: str("uploaded document"),
        target_languages: strList("target languages, ISO codes"),
        quality: oneOf(["machine", "human", "certified"], "translation quality", "machine"),
      },
      required: ["file_id", "target_languages"],
      access: "write",
      outputs: [out("order_id", "string", "translation order")],
      replies: tr.write({ order_id: "TRO-{@id}", file_id: "{file_id}" }),
    },
    {
      name: "order_status",
      description: "Progress of a translation order and the translated files once delivered.",
      params: { order_id: str("translation order") },
      required: ["order_id"],
      access: "read",
      outputs: [out("state", "string", "state"), out("files", "array", "language, file_id")],
      replies: tr.get("translation order", "order_id"),
    },
  ],
};
