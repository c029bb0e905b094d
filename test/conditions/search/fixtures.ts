/** Small hand-made endpoints whose search fields are easy to count by hand. */
import type { Endpoint } from "../../../src/conditions/catalog/index.ts";

export function endpoint(
  route: string,
  toolDescription: string,
  description: string,
  parameters: Record<string, { type: string; description?: string }> = {},
): Endpoint {
  const [tool = "", name = ""] = route.split(".");
  return {
    route_id: route,
    tool,
    endpoint: name,
    function_name: `${tool}__${name}`,
    tool_description: toolDescription,
    description,
    parameters: { type: "object", properties: parameters, required: [], additionalProperties: false },
    read_only: false,
    destructive: false,
    outputs: [],
    role: "base",
  } as Endpoint;
}
