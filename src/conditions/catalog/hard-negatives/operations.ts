/**
 * Hard negatives of exports, messaging and the compute runtime: a retired export service,
 * previews, schedules, a queue monitor, drafts, public links, digests, a sandbox, a cached monitor
 * and archived logs — each doing something that sounds like the base route and is not what the
 * user asked for. The supplier catalogue and booking hard negatives are in supplies.ts.
 */
import { replyStyle } from "../reply-styles.ts";
import { int, oneOf, out, str, type ToolSpec } from "../spec.ts";

const ARTIFACT_ID = str("data artifact identifier, e.g. ART-5520");
const JOB_ID = str("export job identifier, e.g. EXP-30017");
const RUNTIME_ID = str("runtime identifier, e.g. RT-CHEM-07");
const FORMATS = ["csv", "json", "parquet", "xlsx", "hdf5", "pdf"];

const v1 = replyStyle("spring");
export const EXPORTS_V1: ToolSpec = {
  tool: "exports_v1",
  description:
    "Export service v1, retired in 2024: a read-only record of old export jobs; it runs no new exports.",
  endpoints: [
    {
      name: "export",
      imitates: "exports.export",
      description:
        "Look up the last v1 export of a data artifact and its old file; v1 no longer starts exports, so nothing new is written.",
      params: { artifact_id: ARTIFACT_ID, format: oneOf(FORMATS, "format of the old export") },
      required: ["artifact_id"],
      access: "read",
      outputs: [
        out("job_id", "string", "old v1 job"),
        out("file_uri", "string", "old file location, possibly expired"),
      ],
      replies: v1.get("v1 export", "artifact_id"),
    },
    {
      name: "status",
      imitates: "exports.status",
      description:
        "State of an export job as the v1 service recorded it; jobs started on the current export service are unknown to it.",
      params: { job_id: JOB_ID },
      required: ["job_id"],
      access: "read",
      outputs: [out("state", "string", "v1 job state"), out("file_uri", "string", "v1 file location")],
      replies: v1.get("v1 job", "job_id"),
    },
  ],
};

const preview = replyStyle("odata");
export const EXPORTS_PREVIEW: ToolSpec = {
  tool: "exports_preview",
  description: "Export previews for a quick look in the browser.",
  endpoints: [
    {
      name: "preview",
      imitates: "exports.export",
      description:
        "Render a preview of a data artifact (its first 100 rows or a thumbnail) behind a link that expires after an hour; no file is exported and no job is created.",
      params: {
        artifact_id: ARTIFACT_ID,
        format: oneOf(["html", "png"], "preview format (default html)", "html"),
      },
      required: ["artifact_id"],
      access: "read",
      outputs: [
        out("preview_url", "string", "temporary link"),
        out("expires_at", "string", "when the link stops working"),
      ],
      replies: preview.get("artifact", "artifact_id"),
    },
  ],
};

const scheduler = replyStyle("jsonapi");
export const EXPORTS_SCHEDULER: ToolSpec = {
  tool: "exports_scheduler",
  description: "Scheduled exports: recurring export jobs that run at night.",
  endpoints: [
    {
      name: "schedule",
      imitates: "exports.export",
      description:
        "Schedule a recurring export of a data artifact to run every night at 02:00 in a format; nothing is exported now and the first file appears tomorrow.",
      params: {
        artifact_id: ARTIFACT_ID,
        format: oneOf(FORMATS, "file format"),
        cron: str("cron expression (default '0 2 * * *')"),
      },
      required: ["artifact_id", "format"],
      access: "write",
      outputs: [
        out("schedule_id", "string", "identifier of the schedule"),
        out("next_run", "string", "time of the first run"),
      ],
      replies: scheduler.write({
        schedule_id: "SCH-{@id}",
        artifact_id: "{artifact_id}",
        state: "scheduled",
      }),
    },
  ],
};

const queue = replyStyle("slack");
export const EXPORTS_QUEUE: ToolSpec = {
  tool: "exports_queue",
  description: "Export queue monitor for the operations screen.",
  endpoints: [
    {
      name: "position",
      imitates: "exports.status",
      description:
        "Position of a waiting export job in the queue and the estimated wait; running and finished jobs are not shown.",
      params: { job_id: JOB_ID },
      required: ["job_id"],
      access: "read",
      outputs: [
        out("position", "integer", "place in the queue"),
        out("estimated_wait_s", "integer", "estimated wait", "s"),
      ],
      replies: queue.get("queued job", "job_id"),
    },
  ],
};

const chatDrafts = replyStyle("slack");
export const MESSAGING_DRAFTS: ToolSpec = {
  tool: "messaging_drafts",
  description: "Message drafts in LabChat: messages kept in your outbox until you send them yourself.",
  endpoints: [
    {
      name: "save",
      imitates: "messaging.send",
      description:
        "Save a direct message to a colleague as a draft in your outbox; it is not delivered until you send it from the app.",
      params: {
        recipient: str("recipient e-mail address"),
        message: str("message text"),
        subject: str("subject line"),
      },
      required: ["recipient", "message"],
      access: "write",
      outputs: [out("draft_id", "string", "identifier of the draft")],
      replies: chatDrafts.write({ draft_id: "DFT-{@id}", recipient: "{recipient}", sent: false }),
    },
  ],
};

const links = replyStyle("problem");
export const PUBLIC_LINKS: ToolSpec = {
  tool: "public_links",
  description:
    "Public link sharing: artifacts published at links anyone can open, for collaborators outside the laboratory.",
  endpoints: [
    {
      name: "publish",
      imitates: "messaging.share",
      description:
        "Publish an artifact at a public link that anyone who has it can open; nobody is notified and no named colleague is given access.",
      params: {
        artifact_id: str("artifact identifier"),
        expires_in_days: int("days until the link stops working", { minimum: 1, maximum: 90 }),
      },
      required: ["artifact_id"],
      access: "write",
      outputs: [out("public_url", "string", "the public link")],
      replies: links.write(
        { artifact_id: "{artifact_id}", public_url: "https://share.lab.example/p/{@id}" },
        ["artifact", "artifact_id"],
      ),
    },
  ],
};

const digest = replyStyle("google");
export const CHANNEL_DIGEST: ToolSpec = {
  tool: "channel_digest",
  description:
    "Weekly channel digests: items collected during the week and posted together on Monday morning.",
  endpoints: [
    {
      name: "queue_item",
      imitates: "messaging.post",
      description:
        "Add an item to a channel's weekly digest, which is posted on Monday at 08:00; nothing appears in the channel now.",
      params: { channel: str("channel name, e.g. '#furnace-ops'"), text: str("item text") },
      required: ["channel", "text"],
      access: "write",
      outputs: [
        out("digest_item_id", "string", "identifier of the queued item"),
        out("posts_on", "string", "date of the digest"),
      ],
      replies: digest.write({ channel: "{channel}", digestItemId: "DIG-{@id}" }),
    },
  ],
};

const sandbox = replyStyle("fault");
export const RUNTIME_SANDBOX: ToolSpec = {
  tool: "runtime_sandbox",
  description:
    "Sandbox runtimes: disposable copies of the analysis runtimes for trying commands, reset every hour.",
  endpoints: [
    {
      name: "execute",
      imitates: "runtime.execute",
      description:
        "Execute a command in a disposable sandbox copy of a runtime; nothing it changes reaches the real runtime, its jobs or their outputs.",
      params: { runtime_id: RUNTIME_ID, command: str("command line to run") },
      required: ["runtime_id", "command"],
      access: "write",
      outputs: [
        out("exit_code", "integer", "exit code in the sandbox"),
        out("output", "string", "sandbox output"),
      ],
      replies: sandbox.write({ sandbox_of: "{runtime_id}", exit_code: 0 }, ["runtime", "runtime_id"]),
    },
    {
      name: "rerun",
      imitates: "runtime.rerun",
      description:
        "Rerun a job in the sandbox on copied inputs; its results are discarded when the sandbox resets at the top of the hour.",
      params: { job_id: str("analysis job identifier, e.g. JOB-118204") },
      required: ["job_id"],
      access: "write",
      outputs: [out("sandbox_job_id", "string", "job id inside the sandbox")],
      replies: sandbox.write({ sandbox_job_id: "SBX-{@id}", rerun_of: "{job_id}" }, ["job", "job_id"]),
    },
  ],
};

const monitor = replyStyle("odata");
export const RUNTIME_MONITOR: ToolSpec = {
  tool: "runtime_monitor",
  description: "Runtime monitor dashboard: runtime states cached for the operations wall screen.",
  endpoints: [
    {
      name: "status",
      imitates: "runtime.status",
      description:
        "Cached state of a runtime as the wall screen shows it, refreshed every 10 minutes, with the time of the cached sample.",
      params: { runtime_id: RUNTIME_ID },
      required: ["runtime_id"],
      access: "read",
      outputs: [
        out("state", "string", "cached state"),
        out("cached_at", "string", "time of the cached sample"),
      ],
      replies: monitor.get("runtime", "runtime_id"),
    },
    {
      name: "last_restart",
      imitates: "runtime.restart",
      description: "When a runtime was last restarted and by whom; a read-only record, it restarts nothing.",
      params: { runtime_id: RUNTIME_ID },
      required: ["runtime_id"],
      access: "read",
      outputs: [
        out("restarted_at", "string", "time of the last restart"),
        out("restarted_by", "string", "who restarted it"),
      ],
      replies: monitor.get("runtime", "runtime_id"),
    },
  ],
};

const coldLogs = replyStyle("spring");
export const RUNTIME_LOGS_ARCHIVE: ToolSpec = {
  tool: "runtime_logs_archive",
  description: "Cold storage of job logs older than 30 days, restored on request.",
  endpoints: [
    {
      name: "logs",
      imitates: "runtime.logs",
      description:
        "Archived log lines of a job that finished more than 30 days ago; recent jobs have no archive yet.",
      params: {
        job_id: str("analysis job identifier"),
        tail: int("last N lines", { minimum: 1, maximum: 5000 }),
      },
      required: ["job_id"],
      access: "read",
      outputs: [
        out("lines", "array", "timestamp, stream, text"),
        out("archived_on", "string", "date the logs were archived"),
      ],
      replies: coldLogs.get("archived log", "job_id"),
    },
  ],
};
