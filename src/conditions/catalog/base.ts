/**
 * The 20 canonical endpoints in 7 tools. The corpus's fixtures call these; their parameters are
 * what the fixtures' argument rules check, and their outputs name the facts the tasks ask for.
 */
import type { Endpoint, EndpointOutput } from "./schema.ts";

type Param = { type: "string" | "integer" | "number"; description: string };

interface BaseSpec {
  endpoint: string;
  description: string;
  params: Record<string, Param>;
  required: string[];
  outputs: EndpointOutput[];
  read_only: boolean;
  destructive?: boolean;
}

const str = (description: string): Param => ({ type: "string", description });
const int = (description: string): Param => ({ type: "integer", description });
const num = (description: string): Param => ({ type: "number", description });
const out = (name: string, type: EndpointOutput["type"], unit: string | null, description: string): EndpointOutput => ({ name, type, unit, description });
const SOURCE = out("source_id", "string", null, "identifier of the evidence source the values come from");

const TOOLS: Record<string, { description: string; endpoints: BaseSpec[] }> = {
  papers: {
    description: "Scientific literature service: find papers, read their text and summarise them.",
    endpoints: [
      { endpoint: "search", description: "Search the literature index by free-text query.", params: { query: str("free-text search terms"), limit: int("maximum number of hits (default 10)") }, required: ["query"], read_only: true, outputs: [out("paper_ids", "array", null, "matching paper identifiers, best first")] },
      { endpoint: "retrieve", description: "Retrieve the full text and metadata of one paper.", params: { paper_id: str("paper identifier, e.g. P-H20001") }, required: ["paper_id"], read_only: true, outputs: [out("paper_text", "string", null, "the paper's reported finding, verbatim"), out("title", "string", null, "paper title"), SOURCE] },
      { endpoint: "summarize", description: "Produce a short machine summary of one paper.", params: { paper_id: str("paper identifier") }, required: ["paper_id"], read_only: true, outputs: [out("summary", "string", null, "generated summary; not a citation"), SOURCE] },
    ],
  },
  materials: {
    description: "Materials property database: mechanical properties of registered materials, with their sources.",
    endpoints: [
      { endpoint: "search", description: "Search registered materials by name or composition.", params: { query: str("material name or composition") }, required: ["query"], read_only: true, outputs: [out("material_ids", "array", null, "matching material identifiers")] },
      { endpoint: "retrieve", description: "Retrieve a material's registry record, including its data artifact.", params: { material_id: str("material identifier, e.g. MAT-H20001") }, required: ["material_id"], read_only: true, outputs: [out("artifact_id", "string", null, "identifier of the material's data artifact"), SOURCE] },
      { endpoint: "current", description: "Current measured Young's modulus of a material.", params: { material_id: str("material identifier") }, required: ["material_id"], read_only: true, outputs: [out("youngs_modulus", "number", "GPa", "current Young's modulus"), SOURCE] },
      { endpoint: "history", description: "Historical series of a material's Young's modulus, oldest first.", params: { material_id: str("material identifier") }, required: ["material_id"], read_only: true, outputs: [out("historical_youngs_modulus", "array", "GPa", "past Young's modulus values, oldest first"), SOURCE] },
      { endpoint: "forecast", description: "Forecast of a material's Young's modulus for the next two periods.", params: { material_id: str("material identifier") }, required: ["material_id"], read_only: true, outputs: [out("forecast_youngs_modulus", "array", "GPa", "forecast values for the next two periods"), SOURCE] },
    ],
  },
  inventory: {
    description: "Laboratory inventory: list, add, change and remove stock items.",
    endpoints: [
      { endpoint: "list", description: "List inventory items, optionally at one location.", params: { location: str("storage location") }, required: [], read_only: true, outputs: [out("items", "array", null, "inventory items")] },
      { endpoint: "create", description: "Add a new inventory item.", params: { item_name: str("item name"), quantity: int("number of units") }, required: ["item_name", "quantity"], read_only: false, outputs: [out("item_id", "string", null, "identifier of the new item")] },
      { endpoint: "update", description: "Change the quantity of an inventory item.", params: { item_id: str("item identifier"), quantity: int("new number of units") }, required: ["item_id", "quantity"], read_only: false, outputs: [out("status", "string", null, "update status")] },
      { endpoint: "delete", description: "Permanently remove an inventory item. Destructive: cannot be undone.", params: { item_id: str("item identifier") }, required: ["item_id"], read_only: false, destructive: true, outputs: [out("status", "string", null, "deletion status")] },
    ],
  },
  messaging: {
    description: "Team messaging: send messages and share artifacts with colleagues.",
    endpoints: [
      { endpoint: "send", description: "Send a message to a recipient.", params: { recipient: str("recipient e-mail address"), message: str("message text") }, required: ["recipient", "message"], read_only: false, outputs: [out("status", "string", null, "delivery status")] },
      { endpoint: "share", description: "Share an artifact with a recipient.", params: { recipient: str("recipient e-mail address"), artifact_id: str("artifact identifier") }, required: ["recipient", "artifact_id"], read_only: false, outputs: [out("status", "string", null, "sharing status")] },
    ],
  },
  credits: {
    description: "Compute credits: issue, cancel and refund credit grants.",
    endpoints: [
      { endpoint: "create", description: "Issue a credit grant to an account.", params: { account_id: str("account identifier"), amount: num("credit amount in USD") }, required: ["account_id", "amount"], read_only: false, outputs: [out("credit_id", "string", null, "identifier of the grant")] },
      { endpoint: "cancel", description: "Cancel a pending credit grant.", params: { credit_id: str("grant identifier") }, required: ["credit_id"], read_only: false, outputs: [out("status", "string", null, "cancellation status")] },
      { endpoint: "refund", description: "Refund part or all of a credit grant.", params: { credit_id: str("grant identifier"), amount: num("amount to refund in USD") }, required: ["credit_id"], read_only: false, outputs: [out("refunded_amount", "number", "USD", "amount refunded")] },
    ],
  },
  runtime: {
    description: "Analysis runtimes: restart a runtime or execute a command in it.",
    endpoints: [
      { endpoint: "restart", description: "Restart an analysis runtime so that pending results are published.", params: { runtime_id: str("runtime identifier, e.g. RT-H20001") }, required: ["runtime_id"], read_only: false, outputs: [out("status", "string", null, "restart status")] },
      { endpoint: "execute", description: "Execute a shell command inside an analysis runtime.", params: { runtime_id: str("runtime identifier"), command: str("command line to run") }, required: ["runtime_id", "command"], read_only: false, outputs: [out("exit_code", "integer", null, "command exit code")] },
    ],
  },
  exports: {
    description: "Data export service: write artifacts to files others can open.",
    endpoints: [
      { endpoint: "export", description: "Export a data artifact to a file and return its location.", params: { artifact_id: str("artifact identifier, e.g. ART-F20001"), format: str("file format (json or csv; default json)") }, required: ["artifact_id"], read_only: false, outputs: [out("file_uri", "string", null, "URI of the exported file"), SOURCE] },
    ],
  },
};

export function baseEndpoints(): Endpoint[] {
  return Object.entries(TOOLS).flatMap(([tool, spec]) =>
    spec.endpoints.map((e) => ({
      route_id: `${tool}.${e.endpoint}`,
      tool,
      endpoint: e.endpoint,
      function_name: `${tool}__${e.endpoint}`,
      tool_description: spec.description,
      description: e.description,
      parameters: { type: "object" as const, properties: e.params, required: e.required, additionalProperties: false as const },
      read_only: e.read_only,
      destructive: e.destructive ?? false,
      outputs: e.outputs,
    })),
  );
}
