/** The scenarios a study runs: the built-in ones and a file's, every name once, each re-centrable. */
import { BUILT_IN_SCENARIOS, type Scenario } from "./scenarios.ts";
import { recentringProblems } from "./truth.ts";

export interface ScenarioSetProblem {
  readonly code: "duplicate_scenario" | "scenario_not_recentrable";
  readonly message: string;
}

/** The built-in scenarios, then the file's; what is wrong with the set (a name twice, a file scenario that cannot sit at −margin and 0). */
export function scenarioSet(
  extra: readonly Scenario[],
  margin: number,
): { all: Scenario[]; problems: ScenarioSetProblem[] } {
  const all = [...BUILT_IN_SCENARIOS, ...extra];
  const seen = new Set<string>();
  const problems: ScenarioSetProblem[] = all.flatMap((s) => {
    if (!seen.has(s.name)) {
      seen.add(s.name);
      return [];
    }
    return [{ code: "duplicate_scenario" as const, message: `scenario ${s.name} is defined more than once` }];
  });
  for (const message of recentringProblems(extra, [-margin, 0]))
    problems.push({ code: "scenario_not_recentrable", message });
  return { all, problems };
}
