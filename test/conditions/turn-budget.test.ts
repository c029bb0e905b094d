import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { parseProtocol, type Protocol, type Task } from "../../src/authoring/index.ts";
import { keywordRanking, manifestEntry } from "../../src/conditions/routing/index.ts";
import {
  promptTurnLimitProblems,
  referenceTurnUsage,
  turnBudgetProblems,
  type TurnUsage,
} from "../../src/conditions/runner/index.ts";
import { loadUnitConverter, type UnitConverter } from "../../src/core/index.ts";
import { bundled } from "../helpers/bundled.ts";
import { BUNDLED_PROTOCOL_PATH } from "../helpers/protocol.ts";
import { EXPORT_TASK, WORLD_TASKS } from "../helpers/world-tasks.ts";

const { protocol, catalogs } = bundled();
const catalogMap = new Map(catalogs.map((c) => [c.size, c.catalog]));
let units: UnitConverter;
beforeAll(async () => {
  units = await loadUnitConverter();
});

/** Manifest entries for the world tasks: the keyword ranking, or every required route ranked last. */
function entries(p: Protocol, tasks: readonly Task[], worst = false) {
  return tasks.flatMap((task) =>
    catalogs.map(({ size, catalog }) => {
      const ranked = keywordRanking(task.query, catalog.endpoints);
      const order = worst
        ? [...ranked.filter((r) => !task.required_routes.includes(r)), ...task.required_routes]
        : ranked;
      return manifestEntry(p, task, size, order);
    }),
  );
}

const usage = (p: Protocol, tasks: readonly Task[] = WORLD_TASKS, worst = false) =>
  referenceTurnUsage({
    protocol: p,
    tasks,
    manifest: { entries: entries(p, tasks, worst) },
    catalogs: catalogMap,
    units,
  });

const turnsOf = (used: readonly TurnUsage[], task: string, condition: string, size = 100) =>
  used.find((u) => u.semantic_task_id === task && u.condition === condition && u.catalog_size === size)
    ?.turns;

describe("the turn budget against a corpus", () => {
  it("fits the protocol's budget: every task, condition and size answered with two turns to spare", async () => {
    for (const worst of [false, true]) {
      const used = await usage(protocol, WORLD_TASKS, worst);
      expect(used).toHaveLength(WORLD_TASKS.length * 2 * protocol.conditions.length);
      expect(turnBudgetProblems(protocol, used)).toEqual([]);
      expect(Math.max(...used.map((u) => u.turns))).toBeLessThanOrEqual(protocol.agent_loop.max_turns - 2);
    }
  });

  it("counts the turns by hand: a call per required response, a turn per widening, the answer", async () => {
    const used = await usage(protocol);
    expect([turnsOf(used, "w-export", "FULL"), turnsOf(used, "w-export", "ORACLE")]).toEqual([4, 4]);
    expect(turnsOf(used, "w-delete", "FULL")).toBe(2);
    // Every required route ranked last: SR-PROGRESSIVE asks twice (top 3, top 10), then 3 calls and the answer.
    const worst = await usage(protocol, [EXPORT_TASK], true);
    expect(turnsOf(worst, "w-export", "SR-PROGRESSIVE")).toBe(6);
    // SR-5 cannot widen: it asks once, is told there are no more tools, and answers.
    expect(turnsOf(worst, "w-export", "SR-5")).toBe(2);
  });

  it("fails a crafted protocol whose budget leaves too few turns", async () => {
    const tight: Protocol = { ...protocol, agent_loop: { ...protocol.agent_loop, max_turns: 5 } };
    const problems = turnBudgetProblems(tight, await usage(tight));
    expect(problems.length).toBeGreaterThan(0);
    expect(new Set(problems.map((p) => p.code))).toEqual(new Set(["turn_budget_too_small"]));
    expect(problems.map((p) => p.message)).toContain(
      "w-export under FULL at 100 endpoints: the reference agent used 4 of 5 turns (final_answer), 1 left; agent_loop.min_spare_turns asks for 2 (raise max_turns by its max_turns_rule, or shorten the task)",
    );
    // Two calls of five turns leave three: w-delete fits under FULL.
    expect(problems.some((p) => p.message.startsWith("w-delete under FULL"))).toBe(false);
    // Three turns: the export is cut short (the agent answers on its last turn with what it has).
    const cut: Protocol = { ...protocol, agent_loop: { ...protocol.agent_loop, max_turns: 3 } };
    expect(turnsOf(await usage(cut, [EXPORT_TASK]), "w-export", "FULL")).toBe(3);
  });
});

describe("the turn budget in the protocol", () => {
  const raw = () =>
    JSON.parse(readFileSync(BUNDLED_PROTOCOL_PATH, "utf8")) as { agent_loop: Record<string, unknown> };
  const codes = (value: unknown) => {
    const parsed = parseProtocol(value, "p.json");
    return parsed.ok ? [] : parsed.problems.map((p) => p.code);
  };

  it("states the rule and the number it gives", () => {
    expect(protocol.agent_loop.max_turns).toBe(10);
    expect(protocol.agent_loop.min_spare_turns).toBe(2);
    expect(protocol.agent_loop.max_turns_rule).toMatch(/= 10\b/);
  });

  it("refuses a budget that cannot hold a call, the widenings, the answer and the spare turns", () => {
    const small = raw();
    // 1 call + 2 widenings + 1 answer + 2 spare = 6.
    small.agent_loop["max_turns"] = 5;
    small.agent_loop["max_turns_rule"] = "five = 5";
    expect(codes(small)).toEqual(["protocol_turn_budget"]);
    small.agent_loop["max_turns"] = 6;
    small.agent_loop["max_turns_rule"] = "six = 6";
    expect(codes(small)).toEqual([]);
  });

  it("refuses a rule that does not name the number it gives", () => {
    const wrong = raw();
    wrong.agent_loop["max_turns_rule"] = "the longest task's calls + 2 widenings + 1 + 2 = 100";
    expect(codes(wrong)).toEqual(["protocol_turn_budget"]);
  });
});

describe("the turn limit in the system prompt", () => {
  const prompt = readFileSync("manifests/prompts/system.md", "utf8");

  it("is the protocol's max_turns in the bundled prompt", () => {
    expect(promptTurnLimitProblems(prompt, protocol)).toEqual([]);
  });

  it("is refused when it is another number, missing, or said twice", () => {
    const codes = (text: string) => promptTurnLimitProblems(text, protocol).map((p) => p.code);
    expect(codes(prompt.replace("at most 10 turns", "at most 6 turns"))).toEqual([
      "prompt_turn_limit_mismatch",
    ]);
    expect(codes(prompt.replace("at most 10 turns", "a few turns"))).toEqual(["prompt_turn_limit_mismatch"]);
    expect(codes(`${prompt}\nYou have at most 10 turns.`)).toEqual(["prompt_turn_limit_mismatch"]);
  });
});
