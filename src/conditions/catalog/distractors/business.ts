/**
 * Distractors from the business side of a research organisation: customer relations, contracts,
 * document management, the intranet wiki, the project issue tracker, patents, document
 * translation, shipping, the vehicle fleet and equipment maintenance. Patents and the wiki sound
 * like literature; maintenance sounds like the instrument register; none of them is.
 */
import { replyStyle } from "../reply-styles.ts";
import {
  date,
  instant,
  int,
  num,
  oneOf,
  out,
  pageSize,
  pageToken,
  str,
  strList,
  type ToolSpec,
} from "../spec.ts";

const crm = replyStyle("odata");
export const CRM: ToolSpec = {
  tool: "crm",
  description:
    "Customer relationship management: client accounts of the testing services, contacts, activities and sales opportunities.",
  endpoints: [
    {
      name: "search_accounts",
      description:
        "Search client accounts by company name, country or industry, with account owner and tier.",
      params: {
        query: str("company name"),
        country: str("ISO country code"),
        industry: oneOf(["aerospace", "automotive", "energy", "medical", "consumer", "other"], "industry"),
      },
      required: ["query"],
      access: "read",
      outputs: [out("accounts", "array", "account_id, name, country, owner, tier")],
      replies: crm.list("accounts"),
    },
    {
      name: "account",
      description: "A client account with its contacts, open opportunities and the last activities logged.",
      params: { account_id: str("account id, e.g. ACC-00931") },
      required: ["account_id"],
      access: "read",
      outputs: [out("account", "object", "name, contacts, opportunities, last_activities")],
      replies: crm.get("account", "account_id"),
    },
    {
      name: "log_activity",
      description: "Log a call, meeting or e-mail with a client contact against their account.",
      params: {
        account_id: str("account id"),
        type: oneOf(["call", "meeting", "email"], "activity type"),
        notes: str("what was discussed"),
        occurred_at: instant("when"),
      },
      required: ["account_id", "type"],
      access: "write",
      outputs: [out("activity_id", "string", "activity")],
      replies: crm.write({ activityId: "ACT-{@id}", accountId: "{account_id}" }, ["account", "account_id"]),
    },
    {
      name: "opportunities",
      description: "Sales opportunities in a pipeline stage with expected value and close date.",
      params: {
        stage: oneOf(["prospect", "proposal", "negotiation", "won", "lost"], "pipeline stage"),
        owner: str("account owner"),
      },
      required: [],
      access: "read",
      outputs: [out("opportunities", "array", "opportunity_id, account, value, currency, stage, close_date")],
      replies: crm.list("opportunities"),
    },
    {
      name: "update_stage",
      description: "Move a sales opportunity to another pipeline stage with a reason.",
      params: {
        opportunity_id: str("opportunity id"),
        stage: oneOf(["prospect", "proposal", "negotiation", "won", "lost"], "new stage"),
        reason: str("reason"),
      },
      required: ["opportunity_id", "stage"],
      access: "write",
      outputs: [out("stage", "string", "new stage")],
      replies: crm.write({ opportunityId: "{opportunity_id}", stage: "{stage}" }, [
        "opportunity",
        "opportunity_id",
      ]),
    },
  ],
};

const clm = replyStyle("spring");
export const CONTRACTS: ToolSpec = {
  tool: "contracts",
  description:
    "Contract management: framework agreements, NDAs and service contracts with their terms and renewal dates.",
  endpoints: [
    {
      name: "search_contracts",
      description: "Find contracts by counterparty, type or status, with effective and expiry dates.",
      params: {
        counterparty: str("other party"),
        type: oneOf(["nda", "framework", "service", "license", "collaboration"], "contract type"),
        status: oneOf(["draft", "active", "expired", "terminated"], "status"),
      },
      required: [],
      access: "read",
      outputs: [
        out("contracts", "array", "contract_id, counterparty, type, effective_on, expires_on, status"),
      ],
      replies: clm.list("contracts"),
    },
    {
      name: "contract_terms",
      description:
        "Key terms of a contract: value, payment terms, liability cap, governing law, termination notice.",
      params: { contract_id: str("contract id, e.g. CT-2024-0117") },
      required: ["contract_id"],
      access: "read",
      outputs: [out("terms", "object", "value, payment_terms, liability_cap, governing_law, notice_days")],
      replies: clm.get("contract", "contract_id"),
    },
    {
      name: "renewals",
      description: "Contracts that expire or renew automatically within a number of days.",
      params: {
        within_days: int("look-ahead in days (default 90)", { minimum: 1, maximum: 730, default: 90 }),
      },
      required: [],
      access: "read",
      outputs: [out("renewals", "array", "contract_id, counterparty, renews_on, auto_renew")],
      replies: clm.list("renewals"),
    },
  ],
};

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

const jira = replyStyle("problem");
export const ISSUE_TRACKER: ToolSpec = {
  tool: "issue_tracker",
  description:
    "Project issue tracker: tasks, bugs and epics of the engineering and software projects, with workflows and work logs.",
  endpoints: [
    {
      name: "search_issues",
      description:
        "Search issues with a query language (project = LIMS AND status = Open) and return key, summary, status and assignee.",
      params: {
        jql: str("query, e.g. 'project = LIMS AND status = Open'"),
        max_results: int("maximum issues (default 50)", { minimum: 1, maximum: 200, default: 50 }),
        start_at: int("offset", { minimum: 0, default: 0 }),
      },
      required: ["jql"],
      access: "read",
      outputs: [out("issues", "array", "key, summary, status, assignee, priority")],
      replies: jira.list("issues"),
    },
    {
      name: "issue",
      description: "One issue with description, comments, links, sprint and time tracking.",
      params: { issue_key: str("issue key, e.g. LIMS-2231") },
      required: ["issue_key"],
      access: "read",
      outputs: [out("issue", "object", "summary, description, status, comments, links, sprint")],
      replies: jira.get("issue", "issue_key"),
    },
    {
      name: "create_issue",
      description: "Create an issue of a type in a project with summary, description and priority.",
      params: {
        project: str("project key"),
        issue_type: oneOf(["task", "bug", "story", "epic"], "issue type"),
        summary: str("summary"),
        description: str("description"),
        priority: oneOf(["lowest", "low", "medium", "high", "highest"], "priority", "medium"),
      },
      required: ["project", "issue_type", "summary"],
      access: "write",
      outputs: [out("issue_key", "string", "new issue key")],
      replies: jira.write({ key: "{project}-{@id}", summary: "{summary}" }),
    },
    {
      name: "transition_issue",
      description:
        "Move an issue through its workflow (start progress, resolve, reopen) with an optional comment.",
      params: {
        issue_key: str("issue key"),
        transition: oneOf(["start_progress", "resolve", "reopen", "close"], "workflow transition"),
        comment: str("comment"),
      },
      required: ["issue_key", "transition"],
      access: "write",
      outputs: [out("status", "string", "new status")],
      replies: jira.write({ key: "{issue_key}", transition: "{transition}" }, ["issue", "issue_key"]),
    },
    {
      name: "log_work",
      description: "Log time spent on an issue with a start time and description.",
      params: {
        issue_key: str("issue key"),
        time_spent: str("duration, e.g. '2h 30m'"),
        started: instant("start"),
        comment: str("what was done"),
      },
      required: ["issue_key", "time_spent"],
      access: "write",
      outputs: [out("worklog_id", "string", "work log entry")],
      replies: jira.write({ key: "{issue_key}", worklogId: "{@id}" }, ["issue", "issue_key"]),
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

const ship = replyStyle("google");
export const SHIPPING: ToolSpec = {
  tool: "shipping",
  description:
    "Outbound shipping desk: courier labels, rates and pickups for parcels and pallets leaving the site.",
  endpoints: [
    {
      name: "rates",
      description:
        "Courier rates and transit times for a parcel of a weight and size to a destination postcode.",
      params: {
        destination_postcode: str("postcode"),
        destination_country: str("ISO country code"),
        weight_kg: num("weight", { minimum: 0 }),
        dangerous_goods: oneOf(
          ["none", "un3373", "dry_ice", "limited_quantity"],
          "dangerous-goods class",
          "none",
        ),
      },
      required: ["destination_postcode", "destination_country", "weight_kg"],
      access: "read",
      outputs: [out("rates", "array", "carrier, service, price, currency, transit_days")],
      replies: ship.list("rates"),
    },
    {
      name: "create_label",
      description: "Buy a shipping label for a parcel with a chosen carrier service and book its pickup.",
      params: {
        carrier_service: str("carrier and service, e.g. 'DHL Express 12:00'"),
        recipient_address: str("full address"),
        weight_kg: num("weight", { minimum: 0 }),
        reference: str("your reference"),
      },
      required: ["carrier_service", "recipient_address", "weight_kg"],
      access: "write",
      outputs: [out("waybill", "string", "waybill number"), out("label_url", "string", "label PDF")],
      replies: ship.write({ waybill: "WB{@id}", labelUrl: "https://ship.lab.example/labels/{@id}.pdf" }),
    },
    {
      name: "track",
      description: "Carrier tracking events of an outbound waybill until delivery.",
      params: { waybill: str("waybill number") },
      required: ["waybill"],
      access: "read",
      outputs: [out("events", "array", "at, location, status")],
      replies: ship.get("waybill", "waybill"),
    },
    {
      name: "void_label",
      description:
        "Void an unused shipping label for a refund of its postage; the waybill can no longer be used.",
      params: { waybill: str("waybill number") },
      required: ["waybill"],
      access: "destructive",
      outputs: [out("voided", "boolean", "true")],
      replies: ship.write({ waybill: "{waybill}", voided: true }, ["waybill", "waybill"]),
    },
  ],
};

const fleet = replyStyle("jsonapi");
export const FLEET: ToolSpec = {
  tool: "fleet",
  description:
    "Fleet management: the site's pool vehicles, their bookings, positions, fuel and service dates.",
  endpoints: [
    {
      name: "vehicle",
      description:
        "A pool vehicle by plate: make, model, fuel type, odometer, next service and inspection dates.",
      params: { plate: str("registration plate") },
      required: ["plate"],
      access: "read",
      outputs: [out("vehicle", "object", "make, model, fuel, odometer_km, next_service, inspection_due")],
      replies: fleet.get("vehicle", "plate"),
    },
    {
      name: "vehicle_position",
      description: "Last GPS position and ignition state of a pool vehicle from its telematics box.",
      params: { plate: str("registration plate") },
      required: ["plate"],
      access: "read",
      outputs: [out("position", "object", "lat, lon, recorded_at, ignition")],
      replies: fleet.get("vehicle", "plate"),
    },
    {
      name: "book_vehicle",
      description: "Book a pool vehicle for a trip between two instants with destination and driver.",
      params: {
        plate: str("registration plate (omit for any free vehicle)"),
        start: instant("pickup"),
        end: instant("return"),
        driver: str("driver's employee number"),
        destination: str("destination"),
      },
      required: ["start", "end", "driver"],
      access: "write",
      outputs: [out("booking_ref", "string", "vehicle booking")],
      replies: fleet.write({ booking_ref: "VB-{@id}", driver: "{driver}" }),
    },
    {
      name: "fuel_log",
      description:
        "Fuel and charging entries of a vehicle in a period with litres or kWh, cost and odometer.",
      params: { plate: str("registration plate"), from_date: date("from"), to_date: date("to") },
      required: ["plate"],
      access: "read",
      outputs: [out("entries", "array", "date, quantity, unit, cost, odometer_km")],
      replies: fleet.list("entries"),
    },
  ],
};

const cmms = replyStyle("odata");
export const EQUIPMENT_MAINTENANCE: ToolSpec = {
  tool: "equipment_maintenance",
  description:
    "Maintenance management (CMMS) for plant and workshop equipment: service history, preventive maintenance plans and spare parts.",
  endpoints: [
    {
      name: "service_history",
      description:
        "Repairs and preventive services done on a piece of plant equipment, with technician, hours and parts replaced.",
      params: { equipment_no: str("equipment number, e.g. EQ-COMP-011") },
      required: ["equipment_no"],
      access: "read",
      outputs: [out("services", "array", "date, type, technician, hours, parts")],
      replies: cmms.get("equipment", "equipment_no"),
    },
    {
      name: "schedule_service",
      description: "Schedule a preventive or corrective service of plant equipment with the workshop.",
      params: {
        equipment_no: str("equipment number"),
        service_type: oneOf(["preventive", "corrective", "inspection"], "service type"),
        wanted_on: date("wanted date"),
      },
      required: ["equipment_no", "service_type"],
      access: "write",
      outputs: [out("service_order", "string", "service order")],
      replies: cmms.write({ serviceOrder: "SO-{@id}", equipmentNo: "{equipment_no}" }, [
        "equipment",
        "equipment_no",
      ]),
    },
    {
      name: "spare_parts",
      description: "Spare parts stocked for a piece of equipment with bin location and quantity on hand.",
      params: { equipment_no: str("equipment number") },
      required: ["equipment_no"],
      access: "read",
      outputs: [out("parts", "array", "part_no, description, bin, on_hand")],
      replies: cmms.list("parts"),
    },
  ],
};
