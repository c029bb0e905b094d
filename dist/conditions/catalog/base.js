const str = (description) => ({ type: "string", description });
const int = (description) => ({ type: "integer", description });
const num = (description) => ({ type: "number", description });
const out = (name, type, unit, description) => ({ name, type, unit, description });
const SOURCE = out("source_id", "string", null, "identifier of the evidence source the values come from");
const MATERIAL = str("material identifier, e.g. MAT-4471-TI");
const PROPERTY = str("property name, e.g. youngs_modulus, density, thermal_conductivity (omit for every property on record)");
const TOOLS = {
    papers: {
        description: "Scientific literature service: find papers, read their text and citation records, and summarise them.",
        endpoints: [
            {
                endpoint: "search",
                description: "Search the literature index by free-text query; returns matching paper identifiers, best first.",
                params: { query: str("free-text search terms"), limit: int("maximum number of hits (default 10)") },
                required: ["query"],
                read_only: true,
                outputs: [
                    out("paper_id", "string", null, "best-matching paper identifier"),
                    out("paper_ids", "array", null, "matching paper identifiers, best first"),
                ],
            },
            {
                endpoint: "retrieve",
                description: "Retrieve the full text and metadata of one paper: its reported findings, verbatim, with the measured values it states.",
                params: { paper_id: str("paper identifier, e.g. P-2021-0187") },
                required: ["paper_id"],
                read_only: true,
                outputs: [
                    out("finding", "string", null, "a reported finding, verbatim"),
                    out("title", "string", null, "paper title"),
                    SOURCE,
                ],
            },
            {
                endpoint: "citations",
                description: "The citation record of one paper: DOI, authors, venue, publication year.",
                params: { paper_id: str("paper identifier") },
                required: ["paper_id"],
                read_only: true,
                outputs: [
                    out("doi", "string", null, "digital object identifier"),
                    out("publication_year", "integer", null, "year of publication"),
                    SOURCE,
                ],
            },
            {
                endpoint: "summarize",
                description: "Produce a short machine summary of one paper. Generated text: not a citation and not a source of values.",
                params: { paper_id: str("paper identifier") },
                required: ["paper_id"],
                read_only: true,
                outputs: [out("summary", "string", null, "generated summary; not a citation"), SOURCE],
            },
        ],
    },
    materials: {
        description: "Materials property database: registered materials and their measured mechanical, thermal and electrical properties, with sources.",
        endpoints: [
            {
                endpoint: "search",
                description: "Search registered materials by name, grade or composition.",
                params: { query: str("material name, grade or composition") },
                required: ["query"],
                read_only: true,
                outputs: [
                    out("material_id", "string", null, "best-matching material identifier"),
                    out("material_ids", "array", null, "matching material identifiers"),
                ],
            },
            {
                endpoint: "retrieve",
                description: "Retrieve a material's registry record: composition, supplier, lot, registration date and its data artifact.",
                params: { material_id: MATERIAL },
                required: ["material_id"],
                read_only: true,
                outputs: [
                    out("artifact_id", "string", null, "identifier of the material's data artifact"),
                    out("supplier", "string", null, "supplier of the registered lot"),
                    SOURCE,
                ],
            },
            {
                endpoint: "current",
                description: "Current measured value of a material's properties (Young's modulus, density, strength, conductivity, …), each with its unit and test method.",
                params: { material_id: MATERIAL, property: PROPERTY },
                required: ["material_id"],
                read_only: true,
                outputs: [out("value", "number", null, "measured value, in the unit stated beside it"), SOURCE],
            },
            {
                endpoint: "history",
                description: "Historical series of a material property's measured values, oldest first.",
                params: { material_id: MATERIAL, property: PROPERTY },
                required: ["material_id"],
                read_only: true,
                outputs: [
                    out("series", "array", null, "past values, oldest first, in the unit stated beside them"),
                    SOURCE,
                ],
            },
            {
                endpoint: "forecast",
                description: "Forecast of a material property for the next two periods.",
                params: { material_id: MATERIAL, property: PROPERTY },
                required: ["material_id"],
                read_only: true,
                outputs: [out("forecast", "array", null, "forecast values for the next two periods"), SOURCE],
            },
        ],
    },
    instruments: {
        description: "Laboratory instruments: calibration certificates and the latest sensor readings of each instrument.",
        endpoints: [
            {
                endpoint: "calibration",
                description: "The latest calibration certificate of an instrument: date, offset, uncertainty and the reference used.",
                params: { instrument_id: str("instrument identifier, e.g. INS-TC-0412") },
                required: ["instrument_id"],
                read_only: true,
                outputs: [
                    out("calibration_offset", "number", null, "offset found at calibration, with its unit"),
                    out("calibrated_on", "string", null, "calibration date"),
                    SOURCE,
                ],
            },
            {
                endpoint: "readings",
                description: "Latest readings of an instrument's channels (temperature, pressure, humidity, …), with timestamps and units.",
                params: {
                    instrument_id: str("instrument identifier"),
                    channel: str("channel name (omit for every channel)"),
                },
                required: ["instrument_id"],
                read_only: true,
                outputs: [out("reading", "number", null, "latest reading of the channel, with its unit"), SOURCE],
            },
        ],
    },
    inventory: {
        description: "Laboratory inventory: list, add, change and remove stock items.",
        endpoints: [
            {
                endpoint: "list",
                description: "List inventory items with quantities, lots and locations, optionally at one location.",
                params: { location: str("storage location, e.g. cold room B2") },
                required: [],
                read_only: true,
                outputs: [out("items", "array", null, "inventory items"), SOURCE],
            },
            {
                endpoint: "create",
                description: "Add a new inventory item.",
                params: { item_name: str("item name"), quantity: int("number of units") },
                required: ["item_name", "quantity"],
                read_only: false,
                outputs: [out("item_id", "string", null, "identifier of the new item")],
            },
            {
                endpoint: "update",
                description: "Change the quantity of an inventory item.",
                params: { item_id: str("item identifier"), quantity: int("new number of units") },
                required: ["item_id", "quantity"],
                read_only: false,
                outputs: [out("status", "string", null, "update status")],
            },
            {
                endpoint: "delete",
                description: "Permanently remove an inventory item. Destructive: cannot be undone.",
                params: { item_id: str("item identifier") },
                required: ["item_id"],
                read_only: false,
                destructive: true,
                outputs: [out("status", "string", null, "deletion status")],
            },
        ],
    },
    messaging: {
        description: "Team messaging: send messages and share artifacts with colleagues.",
        endpoints: [
            {
                endpoint: "send",
                description: "Send a message to a recipient.",
                params: { recipient: str("recipient e-mail address"), message: str("message text") },
                required: ["recipient", "message"],
                read_only: false,
                outputs: [out("status", "string", null, "delivery status")],
            },
            {
                endpoint: "share",
                description: "Share an artifact with a recipient.",
                params: { recipient: str("recipient e-mail address"), artifact_id: str("artifact identifier") },
                required: ["recipient", "artifact_id"],
                read_only: false,
                outputs: [out("status", "string", null, "sharing status")],
            },
        ],
    },
    credits: {
        description: "Compute credits: issue, cancel and refund credit grants.",
        endpoints: [
            {
                endpoint: "create",
                description: "Issue a credit grant to an account.",
                params: { account_id: str("account identifier"), amount: num("credit amount in USD") },
                required: ["account_id", "amount"],
                read_only: false,
                outputs: [out("credit_id", "string", null, "identifier of the grant")],
            },
            {
                endpoint: "cancel",
                description: "Cancel a pending credit grant.",
                params: { credit_id: str("grant identifier") },
                required: ["credit_id"],
                read_only: false,
                outputs: [out("status", "string", null, "cancellation status")],
            },
            {
                endpoint: "refund",
                description: "Refund part or all of a credit grant.",
                params: { credit_id: str("grant identifier"), amount: num("amount to refund in USD") },
                required: ["credit_id"],
                read_only: false,
                outputs: [out("refunded_amount", "number", "USD", "amount refunded")],
            },
        ],
    },
    runtime: {
        description: "Analysis runtimes: restart a runtime or execute a command in it.",
        endpoints: [
            {
                endpoint: "restart",
                description: "Restart an analysis runtime so that pending results are published.",
                params: { runtime_id: str("runtime identifier, e.g. RT-CHEM-07") },
                required: ["runtime_id"],
                read_only: false,
                outputs: [out("status", "string", null, "restart status")],
            },
            {
                endpoint: "execute",
                description: "Execute a command inside an analysis runtime and return its output.",
                params: { runtime_id: str("runtime identifier"), command: str("command line to run") },
                required: ["runtime_id", "command"],
                read_only: false,
                outputs: [out("exit_code", "integer", null, "command exit code"), SOURCE],
            },
        ],
    },
    exports: {
        description: "Data export service: write artifacts to files others can open, and report on export jobs.",
        endpoints: [
            {
                endpoint: "export",
                description: "Export a data artifact to a file; returns the export job and, when done, the file's location.",
                params: {
                    artifact_id: str("artifact identifier, e.g. ART-5520"),
                    format: str("file format (json, csv or parquet; default json)"),
                },
                required: ["artifact_id"],
                read_only: false,
                outputs: [
                    out("job_id", "string", null, "export job identifier"),
                    out("file_uri", "string", null, "URI of the exported file"),
                    SOURCE,
                ],
            },
            {
                endpoint: "status",
                description: "Status of an export job: state, file location, size and row count.",
                params: { job_id: str("export job identifier, e.g. EXP-30017") },
                required: ["job_id"],
                read_only: true,
                outputs: [
                    out("state", "string", null, "job state"),
                    out("file_uri", "string", null, "URI of the exported file"),
                    SOURCE,
                ],
            },
        ],
    },
};
export function baseEndpoints() {
    return Object.entries(TOOLS).flatMap(([tool, spec]) => spec.endpoints.map((e) => ({
        route_id: `${tool}.${e.endpoint}`,
        tool,
        endpoint: e.endpoint,
        function_name: `${tool}__${e.endpoint}`,
        tool_description: spec.description,
        description: e.description,
        parameters: {
            type: "object",
            properties: e.params,
            required: e.required,
            additionalProperties: false,
        },
        read_only: e.read_only,
        destructive: e.destructive ?? false,
        outputs: e.outputs,
    })));
}
