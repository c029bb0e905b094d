/** `run --estimate`: what the selected episodes would cost, printed instead of running them. */
import { estimateRun, renderEstimate, type MatrixInput } from "../../conditions/runner/index.ts";
import { BATCH_PRICE_FACTOR, type Price } from "../../providers/index.ts";
import { EXIT, printJson, type CliIo } from "../shell/io.ts";
import type { RunSettings } from "./options.ts";

type Matrix = Omit<MatrixInput, "maxErrors">;

export async function printEstimate(
  { agent, output }: RunSettings,
  matrix: Matrix,
  price: Price | null,
  io: CliIo,
) {
  const factor = agent.batch.enabled ? BATCH_PRICE_FACTOR : 1;
  const estimate = await estimateRun(matrix, agent.provider.generation.max_output_tokens, price, factor);
  if (output.json) printJson(io, { agent: agent.spec, ...estimate });
  else io.out(renderEstimate(agent.spec, estimate));
  return EXIT.ok;
}
