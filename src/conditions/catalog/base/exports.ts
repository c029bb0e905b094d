/**
 * The data export service: jobs that write a data artifact to a file in a chosen format, their
 * states and their files. Errors are RFC 9457 problem details: `{type, title, status, detail}`.
 */
import { bool, instant, oneOf, out, pageSize, pageToken, str, type ToolSpec } from "../spec.ts";

const JOB_ID = str("export job identifier, e.g. EXP-30017");
const problem = (slug: string, title: string, status: number, detail: string) => ({
  type: `https://exports.lab.example/problems/${slug}`,
  title,
  status,
  detail,
});
const INVALID = problem("invalid-request", "Invalid export request", 400, "{@message}");
const UNKNOWN_JOB = problem("job-not-found", "Export job not found", 404, "there is no export job {job_id}");

export const EXPORT_FORMATS = [
  "csv",
  "tsv",
  "json",
  "parquet",
  "xlsx",
  "hdf5",
  "netcdf",
  "npz",
  "vtu",
  "tiff",
  "pdf",
] as const;

export const EXPORTS: ToolSpec = {
  tool: "exports",
  description:
    "Data export service: export jobs that write a data artifact (tables, series, images, meshes, reports) to a file in a chosen format, their progress and the files they produce.",
  endpoints: [
    {
      name: "export",
      description:
        "Start an export job that writes a data artifact to a file in the chosen format, optionally compressed; returns the job id and its first state, usually queued.",
      params: {
        artifact_id: str("data artifact identifier, e.g. ART-5520"),
        format: oneOf(EXPORT_FORMATS, "file format; the artifact's kind limits which apply"),
        compression: oneOf(["none", "gzip", "zip"], "compression of the file (default none)", "none"),
        include_metadata: bool(
          "write the artifact's provenance metadata beside the data (default true)",
          true,
        ),
      },
      required: ["artifact_id", "format"],
      access: "write",
      outputs: [
        out("job_id", "string", "export job identifier"),
        out("state", "string", "first state of the job, usually queued"),
      ],
      replies: {
        success: { job_id: "EXP-{@id}", artifact_id: "{artifact_id}", format: "{format}", state: "queued" },
        not_found: problem(
          "artifact-not-found",
          "Artifact not found",
          404,
          "there is no data artifact {artifact_id}",
        ),
        validation_error: INVALID,
      },
    },
    {
      name: "status",
      description:
        "State of one export job (queued, running, completed, failed, expired) with progress, and once completed the file URI, size, checksum and row count.",
      params: { job_id: JOB_ID },
      required: ["job_id"],
      access: "read",
      outputs: [
        out("state", "string", "queued, running, completed, failed or expired"),
        out("file_uri", "string", "URI of the exported file, once completed"),
        out("size_bytes", "integer", "size of the file", "B"),
        out("source_id", "string", "identifier of the job record"),
      ],
      replies: { not_found: UNKNOWN_JOB, validation_error: INVALID },
    },
    {
      name: "list",
      description:
        "List export jobs, newest first, filtered by artifact, state or submission time, with format and file URI of each.",
      params: {
        artifact_id: str("only jobs exporting this artifact"),
        state: oneOf(["queued", "running", "completed", "failed", "expired"], "only jobs in this state"),
        submitted_after: instant("only jobs submitted after this instant"),
        page_size: pageSize(100, 20),
        page_token: pageToken(),
      },
      required: [],
      access: "read",
      outputs: [
        out("jobs", "array", "job_id, artifact_id, format, state, submitted_at, file_uri"),
        out("next_page_token", "string", "token of the next page, null on the last"),
      ],
      replies: { empty: { jobs: [], next_page_token: null }, validation_error: INVALID },
    },
    {
      name: "cancel",
      description:
        "Cancel a queued or running export job and delete the partial file it has written; a cancelled job cannot be resumed.",
      params: { job_id: JOB_ID },
      required: ["job_id"],
      access: "destructive",
      outputs: [out("job_id", "string", "the job cancelled"), out("state", "string", "cancelled")],
      replies: {
        success: { job_id: "{job_id}", state: "cancelled", partial_file_deleted: true },
        not_found: UNKNOWN_JOB,
        validation_error: INVALID,
      },
    },
  ],
};
