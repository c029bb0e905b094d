/**
 * Distractors from IT infrastructure: infrastructure monitoring, object storage and the data
 * warehouse. They share words with the runtime and export services (status, export, logs) and
 * none of them runs the laboratory's analyses.
 */
import { replyStyle } from "../reply-styles.ts";
import { instant, int, oneOf, out, str, type ToolSpec } from "../spec.ts";

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
