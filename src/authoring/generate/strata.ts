/**
 * Content rules per answer stratum for the bundled #424 corpus. Task k (k = 20001 + plan
 * position) gets identifiers MAT-H{k}, P-H{k}, ART-F{k}, RT-H{k} and sources SRC-F{k}-A/-B; the
 * numbers derive from k so every task differs and every fact is checkable against its evidence.
 */
import type { Evidence, FixtureStep, ForbiddenFact, RequiredFact, Task } from "../task.ts";

/** Everything of a task except its identity and query. */
export type TaskContent = Omit<Task, "semantic_task_id" | "answer_task_stratum" | "language" | "query">;

export const ANALYST_EMAIL = "analyst@example.org";

export interface TaskIds {
  readonly k: number;
  readonly mat: string;
  readonly paper: string;
  readonly artifact: string;
  readonly runtime: string;
  readonly sourceA: string;
  readonly sourceB: string;
}

export function taskIds(k: number): TaskIds {
  return { k, mat: `MAT-H${k}`, paper: `P-H${k}`, artifact: `ART-F${k}`, runtime: `RT-H${k}`, sourceA: `SRC-F${k}-A`, sourceB: `SRC-F${k}-B` };
}

const GPA_UNITS = ["GPa", "MPa"];

function evidence(source_id: string, facts: Record<string, { value: unknown; unit: string | null }>, extra: Record<string, unknown> = {}): Evidence {
  return { source_id, payload: { ...extra, facts } } as Evidence;
}

function step(route_id: string, argument_rules: FixtureStep["argument_rules"], sources: Evidence[], result?: Record<string, string>): FixtureStep {
  return { route_id, argument_rules, observation: { status: "ok", ...(result ? { result } : {}), sources } };
}

function fact(key: string, value: unknown, unit: string | null, source_id: string): RequiredFact {
  return { key, value, unit, source_id } as RequiredFact;
}

function assemble(steps: FixtureStep[], required: RequiredFact[], extra: Partial<TaskContent> = {}): TaskContent {
  const payloads = new Map<string, Evidence>();
  for (const s of steps) for (const e of s.observation.sources) payloads.set(e.source_id, e);
  return {
    required_routes: steps.map((s) => s.route_id),
    executor_fixture: { steps },
    evidence_payloads: [...payloads.values()],
    allowed_source_ids: [...payloads.keys()],
    required_facts: required,
    forbidden_facts: [],
    numeric_tolerances: {},
    accepted_units: {},
    mandatory_answer_fields: required.map((f) => f.key),
    corrective_contract: null,
    ...extra,
  };
}

function exportSteps(ids: TaskIds): FixtureStep[] {
  return [
    step("materials.retrieve", { material_id: { eq: ids.mat } }, [
      evidence(ids.sourceA, { artifact_id: { value: ids.artifact, unit: null } }, { record: `Registry entry for ${ids.mat}; data artifact attached.` }),
    ]),
    step("exports.export", { artifact_id: { state: "artifact_id" } }, [
      evidence(ids.sourceB, { file_uri: { value: `file:///tmp/${ids.artifact}.json`, unit: null } }, { record: `Export job for ${ids.artifact} finished.` }),
    ]),
  ];
}

const BUILDERS: Record<string, (ids: TaskIds) => TaskContent> = {
  single_property_value_unit_provenance(ids) {
    const v = 130 + (ids.k % 23);
    const steps = [step("materials.current", { material_id: { eq: ids.mat } }, [
      evidence(ids.sourceA, { youngs_modulus: { value: v, unit: "GPa" } }, { method: "resonant ultrasound spectroscopy at 23 °C" }),
    ])];
    return assemble(steps, [fact("youngs_modulus", v, "GPa", ids.sourceA)], {
      numeric_tolerances: { youngs_modulus: { absolute: 0.01 } },
      accepted_units: { youngs_modulus: GPA_UNITS },
    });
  },
  literature_fact_with_source_attribution(ids) {
    const text = `Specimens prepared under study ${ids.paper} kept their lattice intact through the full thermal cycle; the frozen finding is a stability index of ${ids.k % 97}.`;
    const steps = [step("papers.retrieve", { paper_id: { eq: ids.paper } }, [
      evidence(ids.sourceA, { paper_text: { value: text, unit: null } }, { title: `Thermal-cycle stability of annealed specimens (${ids.paper})` }),
    ])];
    return assemble(steps, [fact("paper_text", text, null, ids.sourceA)]);
  },
  multi_source_comparison(ids) {
    const c = 120 + (ids.k % 19);
    const history = [c - 2, c - 1, c];
    const steps = [
      step("materials.current", { material_id: { eq: ids.mat } }, [evidence(ids.sourceA, { current_youngs_modulus: { value: c, unit: "GPa" } })]),
      step("materials.history", { material_id: { eq: ids.mat } }, [evidence(ids.sourceB, { historical_youngs_modulus: { value: history, unit: "GPa" } }, { order: "oldest first" })]),
    ];
    return assemble(steps, [fact("current_youngs_modulus", c, "GPa", ids.sourceA), fact("historical_youngs_modulus", history, "GPa", ids.sourceB)], {
      numeric_tolerances: { current_youngs_modulus: { absolute: 0.01 } },
      accepted_units: { current_youngs_modulus: GPA_UNITS, historical_youngs_modulus: GPA_UNITS },
    });
  },
  transform_or_export_then_status_answer(ids) {
    return assemble(exportSteps(ids), [fact("file_uri", `file:///tmp/${ids.artifact}.json`, null, ids.sourceB)]);
  },
  corrective_expansion_required(ids) {
    const steps = [
      ...exportSteps(ids),
      step("runtime.restart", { runtime_id: { eq: ids.runtime } }, [], { runtime_id: ids.runtime, state: "restarted" }),
      step("messaging.send", { recipient: { eq: ANALYST_EMAIL }, message: { nonempty: true } }, [], { delivery: "queued" }),
    ];
    return assemble(steps, [fact("file_uri", `file:///tmp/${ids.artifact}.json`, null, ids.sourceB)], {
      corrective_contract: { initial_candidate_miss: true, ground_truth_trigger_visible: false },
    });
  },
  distractor_or_contradiction_resistance(ids) {
    const f = 140 + (ids.k % 11);
    const h = f - 3;
    const note = `An archived survey once quoted ${h} GPa (range ${h}–${h + 1} GPa) for this material; that figure is superseded by this forecast.`;
    const steps = [step("materials.forecast", { material_id: { eq: ids.mat } }, [
      evidence(ids.sourceA, { forecast_youngs_modulus: { value: [f, f + 1], unit: "GPa" } }, { note }),
    ])];
    const forbidden: ForbiddenFact[] = [
      { key: "forecast_youngs_modulus", value: h, unit: "GPa" },
      { key: "forecast_youngs_modulus", value: [h, h + 1], unit: "GPa" },
    ];
    return assemble(steps, [fact("forecast_youngs_modulus", [f, f + 1], "GPa", ids.sourceA)], {
      forbidden_facts: forbidden,
      accepted_units: { forecast_youngs_modulus: GPA_UNITS },
    });
  },
};

export function stratumContent(stratum: string, ids: TaskIds): TaskContent {
  const build = BUILDERS[stratum];
  if (!build) throw new Error(`no content rule for stratum ${stratum}`);
  return build(ids);
}

export function hasContentRule(stratum: string): boolean {
  return Object.hasOwn(BUILDERS, stratum);
}
