/**
 * A `--prices` table, checked against its schema (exit 2 on a problem). Apart from inputs.ts because
 * its schema lives with the providers, whose SDKs only the commands that call a model should load.
 */
import { loadWithSchema, usageError } from "../../core/index.ts";
import { priceTableSchema, type Price } from "../../providers/index.ts";

/** The price of the model an agent spec names (`kind:MODEL`), from a `--prices` table; null without one. */
export function loadPrice(path: string | undefined, spec: string): Price | null {
  if (path === undefined) return null;
  const table = loadWithSchema(path, "prices", priceTableSchema, "invalid_prices");
  const model = spec.slice(spec.indexOf(":") + 1);
  const price = table.models[model];
  if (!price) throw usageError("no_price", `${path} has no price for model ${model}`);
  return price;
}
