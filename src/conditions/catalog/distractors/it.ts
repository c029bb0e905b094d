/**
 * Distractors from IT and software services: the IT help desk, CI/CD pipelines, git hosting,
 * IT asset management, identity and access, printing, infrastructure monitoring, object storage
 * and the data warehouse. Some share words with the runtime and export services (job, status,
 * restart, export, logs) and none of them runs the laboratory's analyses.
 */
import { replyStyle } from "../reply-styles.ts";
import { bool, instant, int, oneOf, out, str, type ToolSpec } from "../spec.ts";

const desk = replyStyle("graphql");
export const HELPDESK: ToolSpec = {
  tool: "helpdesk",
  description:
    "IT help desk: support tickets for laptops, accounts, network and software, with comments and resolution.",
  endpoints: [
    {
      name: "open_ticket",
      description:
        "Open an IT support ticket with a category, description and urgency; the service desk answers within its service level.",
      params: {
        category: oneOf(
          ["hardware", "account", "network", "software", "printing", "other"],
          "ticket category",
        ),
        title: str("short title"),
        description: str("what happens and since when"),
        urgency: oneOf(["low", "medium", "high"], "urgency (default medium)", "medium"),
      },
      required: ["category", "title"],
      access: "write",
      outputs: [out("ticket_id", "string", "ticket number")],
      replies: desk.write({ openTicket: { ticketId: "IT-{@id}", state: "NEW" } }),
    },
    {
      name: "ticket",
      description: "An IT ticket with its state, assignee, comments and resolution notes.",
      params: { ticket_id: str("ticket number, e.g. IT-204551") },
      required: ["ticket_id"],
      access: "read",
      outputs: [out("ticket", "object", "title, state, assignee, comments, resolution")],
      replies: desk.get("ticket", "ticket_id"),
    },
    {
      name: "comment_ticket",
      description: "Add a comment to an IT ticket, optionally reopening it if it was resolved.",
      params: {
        ticket_id: str("ticket number"),
        comment: str("comment text"),
        reopen: bool("reopen a resolved ticket"),
      },
      required: ["ticket_id", "comment"],
      access: "write",
      outputs: [out("comment_id", "string", "identifier of the comment")],
      replies: desk.write({ addComment: { ticketId: "{ticket_id}", commentId: "C-{@id}" } }, [
        "ticket",
        "ticket_id",
      ]),
    },
    {
      name: "my_tickets",
      description: "Your open and recent IT tickets with state and last update.",
      params: {
        state: oneOf(["open", "resolved", "closed"], "only this state"),
        first: int("how many (default 20)", { minimum: 1, maximum: 100, default: 20 }),
      },
      required: [],
      access: "read",
      outputs: [out("tickets", "array", "ticket_id, title, state, updated_at")],
      replies: desk.list("tickets"),
    },
  ],
};

const ci = replyStyle("jsonapi");
export const CI_PIPELINES: ToolSpec = {
  tool: "ci_pipelines",
  description:
    "Continuous integration: build and deployment pipelines of the software repositories, their runs and job logs.",
  endpoints: [
    {
      name: "list_pipelines",
      description: "Recent pipeline runs of a repository branch with status, trigger and duration.",
      params: {
        repository: str("repository path, e.g. 'lab-software/lims-connector'"),
        branch: str("branch (default main)", { default: "main" }),
        per_page: int("runs per page", { minimum: 1, maximum: 100, default: 20 }),
      },
      required: ["repository"],
      access: "read",
      outputs: [out("pipelines", "array", "pipeline_id, ref, status, trigger, duration_s")],
      replies: ci.list("pipelines"),
    },
    {
      name: "trigger_pipeline",
      description: "Start a pipeline run for a branch or tag with optional variables.",
      params: {
        repository: str("repository path"),
        ref: str("branch or tag"),
        variables: str("KEY=value pairs separated by commas"),
      },
      required: ["repository", "ref"],
      access: "write",
      outputs: [out("pipeline_id", "string", "new pipeline run")],
      replies: ci.write({ pipeline_id: "{@id}", ref: "{ref}", status: "created" }),
    },
    {
      name: "pipeline_status",
      description: "Status of one pipeline run, stage by stage, with the failing job's name when it failed.",
      params: { repository: str("repository path"), pipeline_id: str("pipeline run id") },
      required: ["repository", "pipeline_id"],
      access: "read",
      outputs: [
        out("status", "string", "created, running, success, failed, canceled"),
        out("stages", "array", "stage, status"),
      ],
      replies: ci.get("pipeline", "pipeline_id"),
    },
    {
      name: "cancel_pipeline",
      description:
        "Cancel a running pipeline; jobs in progress are killed and deployments it was making are left half-done.",
      params: { repository: str("repository path"), pipeline_id: str("pipeline run id") },
      required: ["repository", "pipeline_id"],
      access: "destructive",
      outputs: [out("status", "string", "canceled")],
      replies: ci.write({ pipeline_id: "{pipeline_id}", status: "canceled" }, ["pipeline", "pipeline_id"]),
    },
  ],
};

const git = replyStyle("problem");
export const GIT_HOSTING: ToolSpec = {
  tool: "git_hosting",
  description: "Git hosting: the organisation's source repositories, branches, commits and pull requests.",
  endpoints: [
    {
      name: "repositories",
      description:
        "Repositories of an organisation matching a name, with default branch, visibility and last push.",
      params: { org: str("organisation, e.g. 'lab-software'"), query: str("part of the name") },
      required: ["org"],
      access: "read",
      outputs: [out("repositories", "array", "name, default_branch, visibility, pushed_at")],
      replies: git.list("repositories"),
    },
    {
      name: "pull_request",
      description: "A pull request: title, author, reviewers, checks, mergeability and changed files.",
      params: { repository: str("owner/name"), number: int("pull request number", { minimum: 1 }) },
      required: ["repository", "number"],
      access: "read",
      outputs: [out("pull_request", "object", "title, author, state, reviewers, checks, mergeable, files")],
      replies: git.get("pull request", "number"),
    },
    {
      name: "merge_pull_request",
      description: "Merge an approved pull request into its base branch by merge commit, squash or rebase.",
      params: {
        repository: str("owner/name"),
        number: int("pull request number", { minimum: 1 }),
        method: oneOf(["merge", "squash", "rebase"], "merge method", "merge"),
      },
      required: ["repository", "number"],
      access: "write",
      outputs: [out("sha", "string", "merge commit")],
      replies: git.write({ merged: true, number: "{number}", sha: "{@id}" }, ["pull request", "number"]),
    },
    {
      name: "commits",
      description: "Commits on a branch since a date, with author, message and changed-file count.",
      params: {
        repository: str("owner/name"),
        branch: str("branch"),
        since: instant("only commits after this instant"),
      },
      required: ["repository"],
      access: "read",
      outputs: [out("commits", "array", "sha, author, message, committed_at")],
      replies: git.list("commits"),
    },
    {
      name: "delete_branch",
      description: "Delete a branch from a repository; unmerged commits on it become unreachable.",
      params: { repository: str("owner/name"), branch: str("branch name") },
      required: ["repository", "branch"],
      access: "destructive",
      outputs: [out("deleted", "boolean", "true")],
      replies: git.write({ branch: "{branch}", deleted: true }, ["branch", "branch"]),
    },
  ],
};

const itam = replyStyle("spring");
export const IT_ASSETS: ToolSpec = {
  tool: "it_assets",
  description: "IT asset management: laptops, monitors, phones and licences issued to staff.",
  endpoints: [
    {
      name: "asset",
      description: "An IT asset by tag: model, serial number, holder, warranty end and operating system.",
      params: { asset_tag: str("IT asset tag, e.g. LT-08831") },
      required: ["asset_tag"],
      access: "read",
      outputs: [out("asset", "object", "model, serial, holder, warranty_end, os")],
      replies: itam.get("IT asset", "asset_tag"),
    },
    {
      name: "assets_of",
      description: "IT assets and software licences issued to a person.",
      params: { employee_id: str("employee number or e-mail") },
      required: ["employee_id"],
      access: "read",
      outputs: [out("assets", "array", "asset_tag, type, model, issued_on")],
      replies: itam.list("assets"),
    },
    {
      name: "assign_asset",
      description: "Issue an IT asset from stock to a person and record the hand-over.",
      params: { asset_tag: str("IT asset tag"), employee_id: str("recipient") },
      required: ["asset_tag", "employee_id"],
      access: "write",
      outputs: [out("assignment_id", "string", "hand-over record")],
      replies: itam.write({ assetTag: "{asset_tag}", holder: "{employee_id}" }, ["IT asset", "asset_tag"]),
    },
    {
      name: "retire_asset",
      description:
        "Retire an IT asset for disposal: its disk is scheduled for wiping and it leaves the inventory.",
      params: {
        asset_tag: str("IT asset tag"),
        reason: oneOf(["broken", "end_of_life", "lost", "stolen"], "why"),
      },
      required: ["asset_tag", "reason"],
      access: "destructive",
      outputs: [out("state", "string", "retired")],
      replies: itam.write({ assetTag: "{asset_tag}", state: "retired" }, ["IT asset", "asset_tag"]),
    },
  ],
};

const iam = replyStyle("odata");
export const IDENTITY: ToolSpec = {
  tool: "identity",
  description:
    "Identity and access management: user accounts, group memberships, password resets and account locks.",
  endpoints: [
    {
      name: "user",
      description: "A user account: login name, status, last sign-in, multi-factor methods and licence.",
      params: { user_principal: str("login, e.g. a.kim@lab.example") },
      required: ["user_principal"],
      access: "read",
      outputs: [out("user", "object", "login, enabled, last_sign_in, mfa_methods, licence")],
      replies: iam.get("user", "user_principal"),
    },
    {
      name: "groups_of",
      description: "Security and distribution groups a user belongs to, direct and inherited.",
      params: { user_principal: str("login") },
      required: ["user_principal"],
      access: "read",
      outputs: [out("groups", "array", "group, type, inherited")],
      replies: iam.list("groups"),
    },
    {
      name: "reset_password",
      description: "Force a password reset on a user's next sign-in and send them a temporary code.",
      params: { user_principal: str("login") },
      required: ["user_principal"],
      access: "write",
      outputs: [out("reset_requested", "boolean", "true")],
      replies: iam.write({ user: "{user_principal}", resetRequested: true }, ["user", "user_principal"]),
    },
    {
      name: "disable_account",
      description:
        "Disable a user account at once: sessions are revoked and the person cannot sign in anywhere.",
      params: { user_principal: str("login"), reason: str("reason for the security log") },
      required: ["user_principal", "reason"],
      access: "destructive",
      outputs: [out("enabled", "boolean", "false")],
      replies: iam.write({ user: "{user_principal}", enabled: false }, ["user", "user_principal"]),
    },
  ],
};

const print = replyStyle("fault");
export const PRINTING: ToolSpec = {
  tool: "printing",
  description: "Print management: the site's printers and plotters, print jobs and queues.",
  endpoints: [
    {
      name: "printers",
      description:
        "Printers and plotters near a room with their capabilities (colour, A3, duplex) and toner state.",
      params: { near_room: str("room, e.g. 'B2-114'") },
      required: [],
      access: "read",
      outputs: [out("printers", "array", "printer_id, location, colour, a3, toner")],
      replies: print.list("printers"),
    },
    {
      name: "print_file",
      description: "Send an uploaded file to a printer with copies, duplex and colour settings.",
      params: {
        printer_id: str("printer"),
        file_id: str("uploaded file"),
        copies: int("copies", { minimum: 1, maximum: 99, default: 1 }),
        duplex: bool("print both sides", true),
      },
      required: ["printer_id", "file_id"],
      access: "write",
      outputs: [out("print_job_id", "string", "print job")],
      replies: print.write({ print_job_id: "PJ-{@id}", printer_id: "{printer_id}" }, [
        "printer",
        "printer_id",
      ]),
    },
    {
      name: "print_queue",
      description: "Jobs waiting at a printer, with owner, pages and position.",
      params: { printer_id: str("printer") },
      required: ["printer_id"],
      access: "read",
      outputs: [out("jobs", "array", "print_job_id, owner, pages, position")],
      replies: print.list("jobs"),
    },
    {
      name: "cancel_print",
      description: "Remove one of your print jobs from a printer queue before it prints.",
      params: { print_job_id: str("print job") },
      required: ["print_job_id"],
      access: "destructive",
      outputs: [out("cancelled", "boolean", "true")],
      replies: print.write({ print_job_id: "{print_job_id}", cancelled: true }, [
        "print job",
        "print_job_id",
      ]),
    },
  ],
};

const mon = replyStyle("google");
export const INFRA_MONITORING: ToolSpec = {
  tool: "infra_monitoring",
  description:
    "Infrastructure monitoring: server and network metrics, alert rules and alerts for the IT operations team.",
  endpoints: [
    {
      name: "query_metric",
      description:
        "Time series of a server or network metric (cpu_usage, disk_free, latency_ms) for a host between two instants.",
      params: {
        host: str("host name, e.g. 'fs-02'"),
        metric: str("metric name"),
        start: instant("start"),
        end: instant("end"),
        step_seconds: int("resolution", { minimum: 10, default: 60 }),
      },
      required: ["host", "metric"],
      access: "read",
      outputs: [out("points", "array", "timestamp, value")],
      replies: mon.list("points"),
    },
    {
      name: "alerts",
      description: "Firing and recently resolved infrastructure alerts with host, rule and severity.",
      params: {
        state: oneOf(["firing", "resolved"], "only this state"),
        severity: oneOf(["warning", "critical"], "only this severity"),
      },
      required: [],
      access: "read",
      outputs: [out("alerts", "array", "alert_id, host, rule, severity, since")],
      replies: mon.list("alerts"),
    },
    {
      name: "acknowledge_alert",
      description: "Acknowledge a firing infrastructure alert so the on-call engineer stops being paged.",
      params: { alert_id: str("alert id"), note: str("note for the on-call log") },
      required: ["alert_id"],
      access: "write",
      outputs: [out("acknowledged", "boolean", "true")],
      replies: mon.write({ alertId: "{alert_id}", acknowledged: true }, ["alert", "alert_id"]),
    },
    {
      name: "silence_alerts",
      description:
        "Silence alerts of a host for a maintenance window; no one is paged for that host until it ends.",
      params: { host: str("host name"), until: instant("end of the silence"), comment: str("reason") },
      required: ["host", "until"],
      access: "write",
      outputs: [out("silence_id", "string", "identifier of the silence")],
      replies: mon.write({ silenceId: "SIL-{@id}", host: "{host}" }),
    },
  ],
};

const s3 = replyStyle("fault");
export const OBJECT_STORAGE: ToolSpec = {
  tool: "object_storage",
  description:
    "Object storage: buckets and objects of the IT department's S3-compatible store, with signed download links.",
  endpoints: [
    {
      name: "list_objects",
      description: "Objects in a bucket under a key prefix, with size, storage class and last modification.",
      params: {
        bucket: str("bucket name"),
        prefix: str("key prefix"),
        max_keys: int("keys per page (default 1000)", { minimum: 1, maximum: 1000, default: 1000 }),
        continuation_token: str("token of the next page"),
      },
      required: ["bucket"],
      access: "read",
      outputs: [out("contents", "array", "key, size, storage_class, last_modified")],
      replies: s3.list("contents"),
    },
    {
      name: "head_object",
      description: "Metadata of one stored object: size, content type, ETag, encryption and custom metadata.",
      params: { bucket: str("bucket name"), key: str("object key") },
      required: ["bucket", "key"],
      access: "read",
      outputs: [out("metadata", "object", "size, content_type, etag, encryption, user_metadata")],
      replies: s3.get("object", "key"),
    },
    {
      name: "presign_url",
      description: "A time-limited signed URL to download or upload one object without credentials.",
      params: {
        bucket: str("bucket name"),
        key: str("object key"),
        method: oneOf(["GET", "PUT"], "download or upload", "GET"),
        expires_seconds: int("validity", { minimum: 60, maximum: 604800, default: 3600 }),
      },
      required: ["bucket", "key"],
      access: "read",
      outputs: [out("url", "string", "signed URL")],
      replies: s3.get("object", "key"),
    },
    {
      name: "delete_object",
      description: "Delete an object from a bucket; without versioning it cannot be recovered.",
      params: { bucket: str("bucket name"), key: str("object key") },
      required: ["bucket", "key"],
      access: "destructive",
      outputs: [out("deleted", "boolean", "true")],
      replies: s3.write({ bucket: "{bucket}", key: "{key}", deleted: true }, ["object", "key"]),
    },
  ],
};

const dw = replyStyle("graphql");
export const DATA_WAREHOUSE: ToolSpec = {
  tool: "data_warehouse",
  description: "Corporate data warehouse: SQL over finance, HR and operations reporting tables.",
  endpoints: [
    {
      name: "run_query",
      description:
        "Run a read-only SQL query against the reporting warehouse; long queries run asynchronously.",
      params: {
        sql: str("SQL SELECT statement"),
        max_rows: int("row cap (default 10000)", { minimum: 1, maximum: 100000, default: 10000 }),
      },
      required: ["sql"],
      access: "read",
      outputs: [
        out("query_id", "string", "query handle"),
        out("rows", "array", "rows, when it finished at once"),
      ],
      replies: {
        not_found: {
          data: null,
          errors: [{ message: "relation does not exist", extensions: { code: "UNDEFINED_TABLE" } }],
        },
        validation_error: {
          data: null,
          errors: [{ message: "{@message}", extensions: { code: "BAD_USER_INPUT" } }],
        },
      },
    },
    {
      name: "query_result",
      description: "State and, once finished, the rows of an asynchronous warehouse query.",
      params: { query_id: str("query handle") },
      required: ["query_id"],
      access: "read",
      outputs: [out("state", "string", "RUNNING, SUCCEEDED, FAILED"), out("rows", "array", "result rows")],
      replies: dw.get("query", "query_id"),
    },
    {
      name: "tables",
      description: "Tables of a warehouse schema with row counts and refresh times.",
      params: { schema: oneOf(["finance", "hr", "operations", "facilities"], "schema") },
      required: ["schema"],
      access: "read",
      outputs: [out("tables", "array", "name, rows, refreshed_at")],
      replies: dw.list("tables"),
    },
    {
      name: "table_schema",
      description: "Columns of a warehouse table with types, descriptions and the data owner.",
      params: { schema: str("schema"), table: str("table name") },
      required: ["schema", "table"],
      access: "read",
      outputs: [out("columns", "array", "name, type, description"), out("owner", "string", "data owner")],
      replies: dw.get("table", "table"),
    },
  ],
};
