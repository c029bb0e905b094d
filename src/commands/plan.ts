/** `fabench plan generate`: build the slot plan from the protocol, write it or check it. */
import { existsSync } from "node:fs";
import { buildPlan } from "../authoring/index.ts";
import { checkOutput, formatJsonFile, formatProblem, readTextFile, writeFileAtomic } from "../core/index.ts";
import { EXIT, printJson, type CliIo } from "./shell/io.ts";
import { rewriteAdvice } from "./shell/advice.ts";
import { loadProtocol } from "../world/index.ts";

export interface PlanGenerateOptions {
  readonly protocol: string;
  readonly out: string;
  readonly check: boolean;
  readonly json: boolean;
}

export function planGenerate(options: PlanGenerateOptions, io: CliIo): number {
  if (!options.check)
    checkOutput(options.out, { inputs: [options.protocol], regenerates: "manifests/authoring-plan.json" });
  const protocol = loadProtocol(options.protocol);
  const plan = buildPlan(protocol.value);
  const text = formatJsonFile(plan);
  const summary = {
    out: options.out,
    slot_count: plan.slot_count,
    slots_sha256: plan.slots_sha256,
    protocol_sha256: plan.protocol_sha256,
  };
  if (!options.check) {
    writeFileAtomic(options.out, text);
    if (options.json) printJson(io, { ok: true, written: true, ...summary });
    else io.out(`wrote ${options.out}: ${plan.slot_count} slots, slots_sha256 ${plan.slots_sha256}\n`);
    return EXIT.ok;
  }
  const current = existsSync(options.out) ? readTextFile(options.out, "plan").text : null;
  const upToDate = current === text;
  if (options.json) printJson(io, { ok: upToDate, written: false, up_to_date: upToDate, ...summary });
  if (upToDate) {
    if (!options.json)
      io.out(`${options.out} is up to date: ${plan.slot_count} slots, slots_sha256 ${plan.slots_sha256}\n`);
    return EXIT.ok;
  }
  const why =
    current === null ? "the plan file does not exist" : "differs from a fresh build of the protocol";
  io.err(
    `${formatProblem({ code: "plan_stale", message: `${why}; ${rewriteAdvice("plan generate", "--out", options.out, "manifests/authoring-plan.json")}`, file: options.out })}\n`,
  );
  return EXIT.failed;
}
