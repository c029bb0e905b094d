/**
 * An endpoint's JSON Schema parameters as the params list of the Discover → Call API
 * (DISCOVER-CALL.md §2): `{name, type, required, description?, enum?, items?, properties?}`, and a
 * minimal example call. Nested `items` and `properties` take the same param shape (without `name`),
 * because that is what the reference harness reads when it builds the strict schema (§4): an object
 * property's own `required` is a boolean on the property, not JSON Schema's list on the parent.
 * Pure: a schema in, plain values out.
 */

export interface Param {
  readonly name: string;
  readonly type: string;
  readonly required: boolean;
  readonly description?: string;
  readonly enum?: readonly unknown[];
  readonly items?: NestedParam;
  readonly properties?: Readonly<Record<string, NestedParam>>;
}

/** A param without a name: an array's items, or an object's property (which keeps `required`). */
export type NestedParam = Omit<Param, "name" | "required"> & { readonly required?: boolean };

export interface ObjectSchema {
  readonly properties: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly required: readonly string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * JSON Schema's `type` as one word: a list such as `["string", "null"]` is its first non-null
 * member; a schema without a type but with `enum`, `items` or `properties` gets the type they imply,
 * so the client never sees a param it must refuse as untyped when the schema says enough.
 */
function typeOf(schema: Readonly<Record<string, unknown>>): string {
  const type = schema["type"];
  if (typeof type === "string") return type;
  if (Array.isArray(type)) {
    const first = type.find((t) => typeof t === "string" && t !== "null");
    if (typeof first === "string") return first;
  }
  if (Array.isArray(schema["enum"]) && schema["enum"].length > 0) {
    const kinds = new Set(schema["enum"].map((v) => (typeof v === "number" ? "number" : typeof v)));
    const only = kinds.size === 1 ? [...kinds][0] : undefined;
    if (only === "string" || only === "number" || only === "boolean") return only;
  }
  if (isRecord(schema["items"])) return "array";
  if (isRecord(schema["properties"])) return "object";
  return "string";
}

function nested(schema: Readonly<Record<string, unknown>>, required?: boolean): NestedParam {
  const type = typeOf(schema);
  const description = schema["description"];
  const values = schema["enum"];
  const items = schema["items"];
  const properties = schema["properties"];
  const requiredNames = Array.isArray(schema["required"]) ? schema["required"] : [];
  return {
    type,
    ...(required === undefined ? {} : { required }),
    ...(typeof description === "string" && description !== "" ? { description } : {}),
    ...(Array.isArray(values) && values.length > 0 ? { enum: [...values] } : {}),
    ...(type === "array" && isRecord(items) ? { items: nested(items) } : {}),
    ...(type === "object" && isRecord(properties)
      ? {
          properties: Object.fromEntries(
            Object.entries(properties)
              .filter((entry): entry is [string, Record<string, unknown>] => isRecord(entry[1]))
              .map(([name, child]) => [name, nested(child, requiredNames.includes(name))]),
          ),
        }
      : {}),
  };
}

/** The params list, in the schema's property order. */
export function paramsOf(schema: ObjectSchema): Param[] {
  return Object.entries(schema.properties).map(([name, property]) => {
    const { required: _nestedOnly, ...rest } = nested(property);
    return { name, required: schema.required.includes(name), ...rest };
  });
}

/** A placeholder value of a param's shape: the first enum value, or a value of its type. */
function exampleValue(param: NestedParam & { readonly name?: string }, label: string): unknown {
  if (param.enum !== undefined && param.enum.length > 0) return param.enum[0];
  switch (param.type) {
    case "integer":
    case "number":
      return 1;
    case "boolean":
      return true;
    case "array":
      return param.items === undefined ? [] : [exampleValue(param.items, label)];
    case "object":
      return Object.fromEntries(
        Object.entries(param.properties ?? {})
          .filter(([, child]) => child.required === true)
          .map(([name, child]) => [name, exampleValue(child, name)]),
      );
    default:
      // A visible placeholder, never a value from a task: an example must not hand out an answer.
      return `<${label}>`;
  }
}

/**
 * A placeholder the parameter's own schema accepts where the params list cannot say why another
 * would be refused: a date-time or date in its format, a number within its bounds. The executor
 * validates every constraint (#32), so an example that breaks one would teach a refused call.
 */
function schemaPlaceholder(
  property: Readonly<Record<string, unknown>> | undefined,
  fallback: unknown,
): unknown {
  if (property === undefined) return fallback;
  if (property["format"] === "date-time") return "2026-01-01T00:00:00Z";
  if (property["format"] === "date") return "2026-01-01";
  if (typeof fallback !== "number") return fallback;
  const { minimum, maximum, exclusiveMinimum } = property;
  if (typeof minimum === "number" && fallback < minimum) return minimum;
  if (typeof exclusiveMinimum === "number" && fallback <= exclusiveMinimum) return exclusiveMinimum + 1;
  return typeof maximum === "number" && fallback > maximum ? maximum : fallback;
}

/**
 * One example call: every required param with a placeholder of its type — one the parameter's
 * schema (when given) accepts.
 */
export function exampleCall(params: readonly Param[], schema?: ObjectSchema): Record<string, unknown> {
  return Object.fromEntries(
    params
      .filter((p) => p.required)
      .map((p) => [p.name, schemaPlaceholder(schema?.properties[p.name], exampleValue(p, p.name))]),
  );
}
