/**
 * The analysis compute runtime (ComputeHub): runtimes, their jobs and logs, reruns, restarts and
 * commands. Errors are `{status: "Failure", reason, message, code}`, as a Kubernetes-style API writes them.
 */
import { instant, int, oneOf, out, str, type ToolSpec } from "../spec.ts";

const RUNTIME_ID = str("runtime identifier, e.g. RT-CHEM-07");
const JOB_ID = str("analysis job identifier, e.g. JOB-118204");
const failure = (reason: string, message: string, code: number) => ({
  status: "Failure",
  reason,
  message,
  code,
});
const INVALID = failure("Invalid", "{@message}", 422);
const UNKNOWN_RUNTIME = failure("NotFound", "runtime {runtime_id} not found", 404);
const UNKNOWN_JOB = failure("NotFound", "job {job_id} not found", 404);

export const RUNTIME: ToolSpec = {
  tool: "runtime",
  description:
    "Analysis compute runtime (ComputeHub): the laboratory's analysis runtimes and the jobs they run — state, logs, reruns, restarts and commands.",
  endpoints: [
    {
      name: "status",
      description:
        "State of an analysis runtime (idle, running, hung, failed, stopped) with its last heartbeat, the job it is running and the jobs queued behind it.",
      params: { runtime_id: RUNTIME_ID },
      required: ["runtime_id"],
      access: "read",
      outputs: [
        out("state", "string", "idle, running, hung, failed or stopped"),
        out("last_heartbeat", "string", "time of the last heartbeat"),
        out("current_job", "string", "job running now, if any"),
        out("queue", "array", "job ids waiting"),
      ],
      replies: { not_found: UNKNOWN_RUNTIME, validation_error: INVALID },
    },
    {
      name: "job",
      description:
        "State of one analysis job (queued, running, succeeded, failed, cancelled) with start and end times, exit code and the artifacts it produced.",
      params: { job_id: JOB_ID },
      required: ["job_id"],
      access: "read",
      outputs: [
        out("state", "string", "queued, running, succeeded, failed or cancelled"),
        out("exit_code", "integer", "exit code once finished"),
        out("artifacts", "array", "artifact ids the job produced"),
        out("source_id", "string", "identifier of the job record"),
      ],
      replies: { not_found: UNKNOWN_JOB, validation_error: INVALID },
    },
    {
      name: "logs",
      description: "Log lines a job wrote to stdout and stderr: the last N lines, or those since an instant.",
      params: {
        job_id: JOB_ID,
        stream: oneOf(["stdout", "stderr", "both"], "which stream (default both)", "both"),
        tail: int("last N lines, 1–5000 (default 200)", { minimum: 1, maximum: 5000, default: 200 }),
        since: instant("only lines written after this instant"),
      },
      required: ["job_id"],
      access: "read",
      outputs: [out("lines", "array", "timestamp, stream, text")],
      replies: {
        not_found: UNKNOWN_JOB,
        empty: { job_id: "{job_id}", lines: [] },
        validation_error: INVALID,
      },
    },
    {
      name: "restart",
      description:
        "Restart an analysis runtime: its running processes are stopped, in-memory state is lost, and queued jobs resume once it is back.",
      params: {
        runtime_id: RUNTIME_ID,
        mode: oneOf(
          ["graceful", "force"],
          "graceful waits up to 60 s for processes to stop; force kills them (default graceful)",
          "graceful",
        ),
      },
      required: ["runtime_id"],
      access: "destructive",
      outputs: [out("runtime_id", "string", "the runtime restarted"), out("status", "string", "restarting")],
      replies: {
        success: { kind: "RuntimeRestart", runtime_id: "{runtime_id}", mode: "{mode}", status: "restarting" },
        not_found: UNKNOWN_RUNTIME,
        validation_error: INVALID,
      },
    },
    {
      name: "rerun",
      description:
        "Resubmit a finished or failed job with its original inputs, optionally from a named step and at another priority; returns the new job's id.",
      params: {
        job_id: JOB_ID,
        from_step: str("step to restart from, e.g. 'fit' (default: the first step)"),
        priority: oneOf(["low", "normal", "high"], "queue priority (default normal)", "normal"),
      },
      required: ["job_id"],
      access: "write",
      outputs: [
        out("new_job_id", "string", "identifier of the resubmitted job"),
        out("state", "string", "queued"),
      ],
      replies: {
        success: { kind: "JobRerun", rerun_of: "{job_id}", new_job_id: "JOB-{@id}", state: "queued" },
        not_found: UNKNOWN_JOB,
        validation_error: INVALID,
      },
    },
    {
      name: "execute",
      description:
        "Execute a command line inside an analysis runtime and return its exit code and the first lines of its output.",
      params: {
        runtime_id: RUNTIME_ID,
        command: str("command line to run"),
        timeout_seconds: int("stop the command after this many seconds (default 300)", {
          minimum: 1,
          maximum: 3600,
          default: 300,
        }),
      },
      required: ["runtime_id", "command"],
      access: "write",
      outputs: [
        out("exit_code", "integer", "command exit code"),
        out("output", "string", "first lines of combined output"),
        out("source_id", "string", "identifier of the execution record"),
      ],
      replies: {
        success: { kind: "Exec", runtime_id: "{runtime_id}", exit_code: 0, output: "" },
        not_found: UNKNOWN_RUNTIME,
        validation_error: INVALID,
      },
    },
  ],
};
