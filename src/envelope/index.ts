/** The final-answer envelope: its schema and its strict parser. */
export {
  envelopeFactSchema,
  envelopeJsonSchema,
  envelopeSchema,
  type Envelope,
  type EnvelopeFact,
} from "./schema.ts";
export { MALFORMED_REASONS, parseEnvelope, type EnvelopeResult, type MalformedReason } from "./parse.ts";
