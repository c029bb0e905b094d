/** The final-answer envelope: its schema and its strict parser. */
export { envelopeFactSchema, envelopeJsonSchema, envelopeSchema, } from "./schema.js";
export { MALFORMED_REASONS, parseEnvelope } from "./parse.js";
