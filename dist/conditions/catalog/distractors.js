export const ACTIONS = [
    "search",
    "retrieve",
    "list",
    "create",
    "update",
    "delete",
    "cancel",
    "refund",
    "send",
    "share",
    "export",
    "translate",
    "summarize",
    "compare",
    "merge",
    "restart",
    "execute",
    "forecast",
];
export const RESOURCES = [
    "patent",
    "dataset",
    "sample",
    "experiment",
    "protocol",
    "invoice",
    "shipment",
    "calendar",
    "notebook",
    "image",
    "spectrum",
    "microscopy",
    "supplier",
    "purchase",
    "device",
    "sensor",
    "batch",
    "recipe",
    "project",
    "report",
    "citation",
    "author",
    "organization",
    "workspace",
    "archive",
    "ticket",
    "approval",
    "policy",
    "contract",
    "metric",
    "dashboard",
    "job",
    "queue",
    "model",
    "checkpoint",
    "annotation",
    "document",
    "folder",
    "account",
    "profile",
];
const READ_ONLY = new Set([
    "search",
    "retrieve",
    "list",
    "export",
    "translate",
    "summarize",
    "compare",
    "forecast",
]);
/** What each action takes, does and returns, phrased for a resource. */
function actionSpec(action, r) {
    const id = `${r}_id`;
    const idParam = { [id]: { type: "string", description: `${r} identifier` } };
    const status = [
        { name: "status", type: "string", unit: null, description: "outcome of the operation" },
    ];
    const s = (description) => ({ type: "string", description });
    switch (action) {
        case "search":
            return {
                text: `Find ${r} records that match a keyword query.`,
                params: { query: s("keywords") },
                required: ["query"],
                outputs: [{ name: `${r}_ids`, type: "array", unit: null, description: `matching ${r} identifiers` }],
            };
        case "retrieve":
            return {
                text: `Fetch one ${r} record with all of its stored fields.`,
                params: idParam,
                required: [id],
                outputs: [{ name: r, type: "object", unit: null, description: `the ${r} record` }],
            };
        case "list":
            return {
                text: `List recent ${r} entries, newest first.`,
                params: { limit: { type: "integer", description: "how many entries (default 20)" } },
                required: [],
                outputs: [{ name: `${r}s`, type: "array", unit: null, description: `${r} entries` }],
            };
        case "create":
            return {
                text: `Register a new ${r}.`,
                params: { name: s(`name of the new ${r}`) },
                required: ["name"],
                outputs: [{ name: id, type: "string", unit: null, description: `identifier of the new ${r}` }],
            };
        case "update":
            return {
                text: `Edit fields of an existing ${r}.`,
                params: { ...idParam, changes: s("JSON object of fields to change") },
                required: [id, "changes"],
                outputs: status,
            };
        case "delete":
            return {
                text: `Delete a ${r} and everything attached to it. Destructive: cannot be undone.`,
                params: idParam,
                required: [id],
                outputs: status,
            };
        case "cancel":
            return { text: `Cancel a pending ${r} request.`, params: idParam, required: [id], outputs: status };
        case "refund":
            return {
                text: `Issue a refund against a ${r}.`,
                params: { ...idParam, amount: { type: "number", description: "amount in USD" } },
                required: [id, "amount"],
                outputs: [{ name: "refunded_amount", type: "number", unit: "USD", description: "amount refunded" }],
            };
        case "send":
            return {
                text: `Send a notification about a ${r} to a recipient.`,
                params: { recipient: s("recipient address"), message: s("notification text") },
                required: ["recipient", "message"],
                outputs: status,
            };
        case "share":
            return {
                text: `Grant a colleague access to a ${r}.`,
                params: { ...idParam, recipient: s("colleague address") },
                required: [id, "recipient"],
                outputs: status,
            };
        case "export":
            return {
                text: `Render a ${r} as a downloadable file.`,
                params: { ...idParam, format: s("pdf, csv or json") },
                required: [id],
                outputs: [
                    { name: "download_url", type: "string", unit: null, description: "where to download the file" },
                ],
            };
        case "translate":
            return {
                text: `Machine-translate the text fields of a ${r}.`,
                params: { ...idParam, target_language: s("ISO language code") },
                required: [id, "target_language"],
                outputs: [{ name: "translated_text", type: "string", unit: null, description: "translated text" }],
            };
        case "summarize":
            return {
                text: `Write a short digest of a ${r}.`,
                params: idParam,
                required: [id],
                outputs: [{ name: "digest", type: "string", unit: null, description: "generated digest" }],
            };
        case "compare":
            return {
                text: `Show the differences between two ${r} records.`,
                params: { left_id: s(`first ${r}`), right_id: s(`second ${r}`) },
                required: ["left_id", "right_id"],
                outputs: [{ name: "differences", type: "array", unit: null, description: "fields that differ" }],
            };
        case "merge":
            return {
                text: `Merge two ${r} records into one.`,
                params: { keep_id: s(`${r} to keep`), drop_id: s(`${r} to fold in`) },
                required: ["keep_id", "drop_id"],
                outputs: status,
            };
        case "restart":
            return {
                text: `Restart the worker that serves a ${r}.`,
                params: idParam,
                required: [id],
                outputs: status,
            };
        case "execute":
            return {
                text: `Run a scripted action against a ${r}.`,
                params: { ...idParam, script: s("script name") },
                required: [id, "script"],
                outputs: [{ name: "exit_code", type: "integer", unit: null, description: "script exit code" }],
            };
        case "forecast":
            return {
                text: `Project the next values of a ${r}'s tracked figure.`,
                params: { ...idParam, horizon: { type: "integer", description: "periods ahead" } },
                required: [id],
                outputs: [{ name: "projection", type: "array", unit: null, description: "projected values" }],
            };
    }
}
export function distractorEndpoint(i) {
    const resource = RESOURCES[i % RESOURCES.length];
    const action = ACTIONS[(7 * i + Math.floor(i / 3)) % ACTIONS.length];
    const tool = `aux_${resource}_${String(i).padStart(3, "0")}`;
    const spec = actionSpec(action, resource);
    // Every third distractor says plainly that it is not the canonical service.
    const disclaimer = i % 3 === 2 ? " Not the canonical service for this data: a legacy mirror kept for old integrations." : "";
    return {
        route_id: `${tool}.${action}`,
        tool,
        endpoint: action,
        function_name: `${tool}__${action}`,
        tool_description: `Auxiliary ${resource} service (instance ${i}).`,
        description: `${spec.text}${disclaimer}`,
        parameters: {
            type: "object",
            properties: spec.params,
            required: spec.required,
            additionalProperties: false,
        },
        read_only: READ_ONLY.has(action),
        destructive: action === "delete",
        outputs: spec.outputs,
    };
}
