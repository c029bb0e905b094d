/**
 * Distractors from IT and software services: the IT help desk, CI/CD pipelines, git hosting,
 * IT asset management, identity and access, and printing. Some share words with the runtime and
 * export services (job, status, restart, export, logs) and none of them runs the laboratory's
 * analyses. Monitoring, object storage and the data warehouse are in infrastructure.ts.
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
