/**
 * The task content contract: what one benchmark task carries. The JSON Schema users see
 * (schemas/task.schema.json) is generated from this; a test keeps the two in step.
 *
 * What the agent sees and what only the scorer sees. The agent sees the query, the answer form
 * (`answer_fields`: keys, kinds, descriptions, units — never values) and the observations its calls
 * return. An observation is shaped like a real API's response (`{status, result?, sources:
 * [{source_id, payload}]}`, the payload a record, rows or a text body in the record's own field
 * names and units); it never holds a `facts` member or an object keyed by the form's keys. Where
 * each required and forbidden fact lives is said on the scorer's side only: `evidence`, an RFC 6901
 * pointer into one source's payload (or, for a fact computed from the evidence, the operation and
 * its inputs), which `corpus check` resolves, converts and compares with the gold value.
 *
 * The fixture is a set of responses matched by route and arguments in any order the data allows: a
 * response whose argument rules name state (`{state: NAME}`) matches only once an earlier response
 * that `reveals` NAME was returned.
 */
import { z } from "zod";

const json = z.json();
const id = z.string().min(1);
/** An RFC 6901 JSON pointer into a source's payload: "" is the payload itself, "/rows/2/value" a member. */
const pointer = z.string().refine((p) => p === "" || p.startsWith("/"), "an RFC 6901 pointer starts with /");

/** One rule an argument of a call must satisfy for a response to match it. */
export const argumentRuleSchema = z.union([
  z.strictObject({ eq: json }).describe("the argument equals this value"),
  z
    .strictObject({ eq_text: z.string() })
    .describe("the argument equals this text after NFKC, whitespace collapsing and case folding"),
  z.strictObject({ one_of: z.array(json).min(1) }).describe("the argument equals one of these values"),
  z
    .strictObject({ nonempty: z.literal(true) })
    .describe("the argument is a non-empty string, list or object"),
  z
    .strictObject({ state: id, as: z.enum(["instant"]).optional() })
    .describe(
      "the argument equals the value an earlier response revealed under this name (as: instant — any ISO 8601 spelling of the same instant)",
    ),
  z
    .strictObject({ contains_state: id })
    .describe("the argument is a string containing the value an earlier response revealed under this name"),
  z
    .strictObject({ instant: z.string().min(1) })
    .describe("the argument is an ISO 8601 date-time naming this instant, in any offset or spelling"),
  z
    .strictObject({ terms: z.array(z.string().min(1)).min(1) })
    .describe(
      "a search query: the argument is a text containing at least one of these identifying terms (after the query normaliser, on word boundaries); any other query gets the route's empty result",
    ),
  z
    .strictObject({
      fits_slot: z.strictObject({
        slots: id,
        end: z.string().min(1),
        min_minutes: z.number().nonnegative().optional(),
        max_minutes: z.number().positive().optional(),
      }),
    })
    .describe(
      "a booking's start: this argument and the `end` argument are ISO 8601 instants bounding an interval inside one {start, end} slot of the list an earlier response revealed under `slots`, lasting min_minutes..max_minutes",
    ),
]);

/** A record the agent receives: its id (what the answer cites) and its payload, free-form JSON. */
export const evidenceSchema = z.strictObject({ source_id: id, payload: z.record(z.string(), json) });

export const observationSchema = z.strictObject({
  status: id,
  result: z.record(z.string(), json).optional(),
  sources: z.array(evidenceSchema),
});

/**
 * One response of the replay. `required`: the task needs it (required evidence coverage counts the
 * required responses returned); a response that is not required is there to be found and resisted
 * (a hard-negative route's plausible wrong data, an older record). `reveals` names values later
 * calls need (an id only this response shows), each at a pointer into `observation`; `effects`
 * are what the call does in the world (an export created, a message sent), recorded for review.
 */
export const fixtureResponseSchema = z.strictObject({
  id: id,
  route_id: id,
  argument_rules: z.record(z.string().min(1), argumentRuleSchema),
  observation: observationSchema,
  required: z.boolean(),
  reveals: z.record(id, pointer).optional(),
  effects: z.array(id).optional(),
  fail_once_error: id.optional(),
});

/** Where a value lives in one source's payload; its unit at `unit_pointer` or, fixed, in `unit`. */
export const evidencePointerSchema = z.strictObject({
  source_id: id,
  pointer,
  unit_pointer: pointer.optional(),
  unit: z.string().min(1).optional(),
  /**
   * For text: the gold value is this quote, which must occur in the string at the pointer. For a
   * number written inside a text (a paper's sentence, "1.9984 mV/V"): the number's spelling there,
   * read as a number in `unit`.
   */
  quote: z.string().min(1).optional(),
  /**
   * For a list spread over rows (a history's `entries[i].value`): the pointer names the array of
   * rows and each item of the list is at this pointer inside its row.
   */
  item_pointer: pointer.optional(),
});

export const DERIVED_OPERATIONS = ["difference", "ratio", "sum", "higher", "lower", "within"] as const;

/**
 * A fact computed from the evidence. `difference` is inputs[0] − inputs[1], `ratio` inputs[0] /
 * inputs[1], `sum` their total (each converted to the fact's unit first); `higher`/`lower` are the
 * `labels` entry of the input with the higher/lower value; `within` is whether inputs[0] lies in
 * [`spec.min`, `spec.max`] (in `spec.unit`); its further inputs, when given, are where the limits
 * are stated (each reads as spec.min or spec.max), so a citation of the limit's record is accepted
 * like one of the value's. `corpus check` recomputes every one.
 */
export const derivedEvidenceSchema = z.strictObject({
  derived: z.enum(DERIVED_OPERATIONS),
  inputs: z.array(evidencePointerSchema).min(1),
  labels: z.array(json).optional(),
  spec: z
    .strictObject({
      min: z.number().optional(),
      max: z.number().optional(),
      unit: z.string().min(1).optional(),
    })
    .optional(),
});

export const factEvidenceSchema = z.union([evidencePointerSchema, derivedEvidenceSchema]);

/**
 * A required fact. `source_id` and `evidence` name where the value is read (or, derived, what it
 * is computed from). `also_in`: every other allowed record that holds the same value, each with
 * the pointer where it does; the scorer accepts a citation of `source_id`, of any `also_in` source
 * and, for a derived fact, of any record it was computed from. `corpus check` resolves each.
 */
export const requiredFactSchema = z.strictObject({
  key: id,
  value: json,
  unit: z.string().min(1).nullable(),
  source_id: id,
  evidence: factEvidenceSchema,
  also_in: z.array(evidencePointerSchema).min(1).optional(),
  /**
   * Allowed records that hold the same value by coincidence and say nothing about the fact (another
   * booking's end, the free slot a booking was made in), each with why: the author looked and did
   * not accept them. `corpus check` stops reporting them and refuses one that is also accepted.
   */
  coincidences: z
    .array(z.strictObject({ source_id: id, why: z.string().min(1) }))
    .min(1)
    .optional(),
});

export const forbiddenFactSchema = z.strictObject({
  key: id,
  value: json,
  unit: z.string().min(1).nullable().optional(),
  source_id: id.optional(),
  evidence: factEvidenceSchema,
});

export const ANSWER_KINDS = ["number", "text", "identifier", "list", "boolean"] as const;

/**
 * One field of the answer form the agent fills. `unit`: for numbers, the unit the answer must be
 * given in (the unit the user asked for; when the query names none, the canonical one), else null.
 * `difference`: the number is a difference (a temperature difference converts K ↔ °C without the
 * offset). `ordered`: whether a list is compared in order (else as a set). `item_kind`: what a
 * list holds.
 */
export const answerFieldSchema = z.strictObject({
  key: id,
  kind: z.enum(ANSWER_KINDS),
  description: z.string().min(1),
  unit: z.string().min(1).nullable(),
  difference: z.boolean().optional(),
  ordered: z.boolean().optional(),
  item_kind: z.enum(["number", "text", "identifier"]).optional(),
  /**
   * For a text field (or a list of text) whose value is one of a set the system defines (a job
   * state, a booking status): the values, spelled as the records spell them. The user message
   * shows them with the form; the gold is one of them.
   */
  options: z.array(z.string().min(1)).min(2).optional(),
});

export const toleranceSchema = z
  .strictObject({
    absolute: z.number().nonnegative().optional(),
    relative: z.number().nonnegative().optional(),
  })
  .refine((t) => t.absolute !== undefined || t.relative !== undefined, "give absolute, relative or both");

export const correctiveContractSchema = z.strictObject({
  initial_candidate_miss: z.boolean(),
  ground_truth_trigger_visible: z.boolean(),
});

export const taskSchema = z.strictObject({
  semantic_task_id: id,
  answer_task_stratum: id,
  language: id,
  query: z.string(),
  answer_fields: z.array(answerFieldSchema).min(1),
  required_routes: z.array(z.string()),
  executor_fixture: z.strictObject({ responses: z.array(fixtureResponseSchema) }),
  evidence_payloads: z.array(evidenceSchema),
  allowed_source_ids: z.array(z.string()),
  required_facts: z.array(requiredFactSchema),
  forbidden_facts: z.array(forbiddenFactSchema),
  numeric_tolerances: z.record(z.string(), toleranceSchema),
  accepted_units: z.record(z.string(), z.array(z.string().min(1))),
  mandatory_answer_fields: z.array(z.string()),
  corrective_contract: correctiveContractSchema.nullable(),
});

export type ArgumentRule = z.infer<typeof argumentRuleSchema>;
export type Evidence = z.infer<typeof evidenceSchema>;
export type Observation = z.infer<typeof observationSchema>;
export type FixtureResponse = z.infer<typeof fixtureResponseSchema>;
export type EvidencePointer = z.infer<typeof evidencePointerSchema>;
export type DerivedEvidence = z.infer<typeof derivedEvidenceSchema>;
export type FactEvidence = z.infer<typeof factEvidenceSchema>;
export type AnswerField = z.infer<typeof answerFieldSchema>;
export type AnswerKind = (typeof ANSWER_KINDS)[number];
export type RequiredFact = z.infer<typeof requiredFactSchema>;
export type ForbiddenFact = z.infer<typeof forbiddenFactSchema>;
export type Tolerance = z.infer<typeof toleranceSchema>;
export type Task = z.infer<typeof taskSchema>;

/** The JSON Schema written to schemas/task.schema.json. */
export function taskJsonSchema(): Record<string, unknown> {
  return {
    $id: "https://fabench.dev/schemas/task.schema.json",
    title: "fabench task",
    ...z.toJSONSchema(taskSchema),
  };
}

/** A finite number that is not a boolean: what "numeric" means for facts and tolerances. */
export function isNumericValue(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

/** Whether a fact's evidence is computed from inputs rather than read at one pointer. */
export function isDerived(evidence: FactEvidence): evidence is DerivedEvidence {
  return "derived" in evidence;
}
