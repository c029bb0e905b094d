/**
 * The laboratory information management system (LIMS): registered samples, their chain of custody
 * and the test results recorded against them. Errors are `{result: "ERROR", code: "LIMS-nnn", text}`.
 */
import { date, oneOf, out, pageSize, pageToken, str, type ToolSpec } from "../spec.ts";

const SAMPLE_ID = str("LIMS sample identifier, e.g. S-2026-04417");
const INVALID = { result: "ERROR", code: "LIMS-400", text: "{@message}" };
const UNKNOWN_SAMPLE = { result: "ERROR", code: "LIMS-404", text: "sample {sample_id} is not registered" };

export const SAMPLES: ToolSpec = {
  tool: "samples",
  description:
    "Laboratory information management (LIMS): registered samples with their material, lot and customer, the chain of custody of each sample, and the test results recorded against it.",
  endpoints: [
    {
      name: "search",
      description:
        "Find registered samples by customer reference, project, material or status, received within a date range; returns sample ids with description and status.",
      params: {
        query: str("customer reference or sample description"),
        project: str("project code, e.g. PRJ-0931"),
        material_id: str("only samples of this registered material"),
        status: oneOf(
          ["registered", "in_testing", "reported", "retained", "discarded"],
          "only samples in this status",
        ),
        received_from: date("received on or after this date"),
        received_to: date("received on or before this date"),
        page_size: pageSize(100, 20),
        page_token: pageToken(),
      },
      required: [],
      access: "read",
      outputs: [
        out("samples", "array", "sample_id, description, material_id, lot, received_on, status"),
        out("next_page_token", "string", "token of the next page, null on the last"),
      ],
      replies: { empty: { result: "OK", samples: [], next_page_token: null }, validation_error: INVALID },
    },
    {
      name: "retrieve",
      description:
        "Get one sample's LIMS record: description, material and lot, customer, received date, storage condition, requested tests and status.",
      params: { sample_id: SAMPLE_ID },
      required: ["sample_id"],
      access: "read",
      outputs: [
        out(
          "sample",
          "object",
          "description, material_id, lot, customer, received_on, storage, requested_tests, status",
        ),
        out("source_id", "string", "identifier of the sample record"),
      ],
      replies: { not_found: UNKNOWN_SAMPLE, validation_error: INVALID },
    },
    {
      name: "custody",
      description:
        "Chain of custody of a sample: every hand-over, transfer, storage move and seal check, with time, from and to, location and the person who signed.",
      params: { sample_id: SAMPLE_ID },
      required: ["sample_id"],
      access: "read",
      outputs: [
        out("events", "array", "at, event, from, to, location, seal, signed_by"),
        out("source_id", "string", "identifier of the custody log"),
      ],
      replies: { not_found: UNKNOWN_SAMPLE, validation_error: INVALID },
    },
    {
      name: "results",
      description:
        "Test results recorded against a sample: test code, analyte or property, result with unit, method, analyst, approval status and date; superseded and rejected results stay listed with their status.",
      params: {
        sample_id: SAMPLE_ID,
        test_code: str("only results of this test code, e.g. 'HV10' or 'ICP-OES-Fe'"),
        status: oneOf(["preliminary", "approved", "rejected", "superseded"], "only results in this status"),
        page_size: pageSize(100, 50),
        page_token: pageToken(),
      },
      required: ["sample_id"],
      access: "read",
      outputs: [
        out(
          "results",
          "array",
          "result_id, test_code, analyte, value, unit, method, analyst, status, reported_on",
        ),
        out("next_page_token", "string", "token of the next page, null on the last"),
      ],
      replies: {
        not_found: UNKNOWN_SAMPLE,
        empty: { result: "OK", sample_id: "{sample_id}", results: [], next_page_token: null },
        validation_error: INVALID,
        unmatched: "not_found",
      },
    },
    {
      name: "void_result",
      description:
        "Void one test result of a sample: it is withdrawn from reports and certificates, marked void in the audit trail, and cannot be reinstated.",
      params: {
        sample_id: SAMPLE_ID,
        result_id: str("the result to void, e.g. R-88120"),
        reason: str("why the result is void, recorded in the audit trail"),
      },
      required: ["sample_id", "result_id", "reason"],
      access: "destructive",
      outputs: [out("result_id", "string", "the result voided"), out("status", "string", "void")],
      replies: {
        success: { result: "OK", sample_id: "{sample_id}", result_id: "{result_id}", status: "void" },
        not_found: UNKNOWN_SAMPLE,
        validation_error: INVALID,
      },
    },
  ],
};
