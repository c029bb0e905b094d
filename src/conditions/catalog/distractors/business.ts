/**
 * Distractors from the business side of a research organisation: customer relations, contracts
 * and the project issue tracker. Documents, the wiki, patents and translation are in
 * documents.ts; shipping, the fleet and equipment maintenance in logistics.ts.
 */
import { replyStyle } from "../reply-styles.ts";
import { instant, int, oneOf, out, str, type ToolSpec } from "../spec.ts";

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
