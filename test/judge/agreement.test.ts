/**
 * Quadratic-weighted kappa and Spearman's ρ against values worked out by hand (the arithmetic is in
 * the comments), their defining properties, and the pairing of two judgments files.
 */
import { describe, expect, it } from "vitest";
import {
  averageRanks,
  compareJudgments,
  exactAgreement,
  spearman,
  weightedKappa,
  type RatingPair,
} from "../../src/judge/agreement.ts";
import { JUDGMENT_FORMAT, type Judgment } from "../../src/judge/record.ts";

const zip = (a: number[], b: number[]): RatingPair[] => a.map((x, i) => [x, b[i] as number]);

describe("weighted kappa (quadratic weights)", () => {
  it("matches a 3-point example worked out cell by cell", () => {
    // Scale 1..3 (k = 3), w_ij = (i − j)² / (k − 1)² = (i − j)² / 4.
    // A = 1 2 3 2, B = 1 2 2 3 → pairs (1,1) (2,2) (3,2) (2,3), n = 4.
    // Observed: Σ w O = [0 + 0 + 1/4 + 1/4] / 4 = 0.125.
    // Marginals: A and B each have p = (1/4, 1/2, 1/4) over 1, 2, 3.
    // Expected Σ w E = Σ_ij p_i q_j (i − j)² / 4:
    //   |i − j| = 1: (1,2) 1/4·1/2 + (2,1) 1/2·1/4 + (2,3) 1/2·1/4 + (3,2) 1/4·1/2 = 4/8, × 1/4 = 0.125
    //   |i − j| = 2: (1,3) 1/4·1/4 + (3,1) 1/4·1/4 = 2/16, × 4/4 = 0.125
    //   Σ w E = 0.25.
    // κ_w = 1 − 0.125 / 0.25 = 0.5.
    expect(weightedKappa(zip([1, 2, 3, 2], [1, 2, 2, 3]), 1, 3)).toBeCloseTo(0.5, 12);
  });

  it("matches a 5-point example worked out with the moments of each rater", () => {
    // Scale 1..5 (k = 5, (k − 1)² = 16 cancels). A = 1 2 3 4 5, B = 2 2 3 5 5, n = 5.
    // Observed: Σ (a − b)² / n = (1 + 0 + 0 + 1 + 0) / 5 = 0.4.
    // Expected: Σ p_i q_j (i − j)² = E[(X − Y)²] for independent X ~ A, Y ~ B
    //   = Var A + Var B + (mean A − mean B)².
    //   mean A = 3, Var A = (4 + 1 + 0 + 1 + 4) / 5 = 2;
    //   mean B = 17/5 = 3.4, E[B²] = (4 + 4 + 9 + 25 + 25) / 5 = 13.4, Var B = 13.4 − 11.56 = 1.84;
    //   (3 − 3.4)² = 0.16 → expected = 2 + 1.84 + 0.16 = 4.
    // κ_w = 1 − 0.4 / 4 = 0.9.
    expect(weightedKappa(zip([1, 2, 3, 4, 5], [2, 2, 3, 5, 5]), 1, 5)).toBeCloseTo(0.9, 12);
  });

  it("matches a tied 3-point example (the one Spearman is checked on below)", () => {
    // A = 1 2 2 3, B = 1 3 2 3, scale 1..3. Observed Σ(a − b)²/n = (0 + 1 + 0 + 0) / 4 = 0.25.
    // mean A = 2, Var A = (1 + 0 + 0 + 1) / 4 = 0.5; mean B = 9/4, E[B²] = 23/4, Var B = 5.75 − 5.0625 = 0.6875;
    // (2 − 2.25)² = 0.0625 → expected = 0.5 + 0.6875 + 0.0625 = 1.25. κ_w = 1 − 0.25 / 1.25 = 0.8.
    expect(weightedKappa(zip([1, 2, 2, 3], [1, 3, 2, 3]), 1, 3)).toBeCloseTo(0.8, 12);
  });

  it("is 1 for identical ratings and −1 for a scale reversed around its middle", () => {
    const a = [1, 2, 3, 4, 5, 3, 2];
    expect(weightedKappa(zip(a, a), 1, 5)).toBe(1);
    // A = 1..5, B = 5..1: observed (16 + 4 + 0 + 4 + 16) / 5 = 8; expected 2 + 2 + 0 = 4; κ_w = 1 − 8/4 = −1.
    expect(weightedKappa(zip([1, 2, 3, 4, 5], [5, 4, 3, 2, 1]), 1, 5)).toBeCloseTo(-1, 12);
  });

  it("is undefined (null) when both raters gave everything one and the same rating, or there is nothing", () => {
    // Expected disagreement 0: chance alone agrees perfectly, so agreement beyond chance is 0/0.
    expect(weightedKappa(zip([3, 3, 3], [3, 3, 3]), 1, 5)).toBeNull();
    expect(weightedKappa([], 1, 5)).toBeNull();
    // Constant on different points: observed = expected = (3 − 4)² → κ_w = 0, not undefined.
    expect(weightedKappa(zip([3, 3], [4, 4]), 1, 5)).toBe(0);
  });

  it("refuses a rating off the scale rather than counting it", () => {
    expect(() => weightedKappa([[0, 3]], 1, 5)).toThrow(RangeError);
    expect(() => weightedKappa([[2.5, 3]], 1, 5)).toThrow(RangeError);
  });
});

describe("Spearman's ρ with average ranks", () => {
  it("gives tied values the mean of the ranks they share", () => {
    expect(averageRanks([1, 2, 2, 3])).toEqual([1, 2.5, 2.5, 4]);
    expect(averageRanks([3, 1, 3, 3])).toEqual([3, 1, 3, 3]);
  });

  it("matches a tied example worked out by hand", () => {
    // A = 1 2 2 3 → ranks 1 2.5 2.5 4; B = 1 3 2 3 → ranks 1 3.5 2 3.5; both rank means 2.5.
    // Deviations A: −1.5 0 0 1.5; B: −1.5 1 −0.5 1.
    // Σ dA·dB = 2.25 + 0 + 0 + 1.5 = 3.75; Σ dA² = 4.5; Σ dB² = 2.25 + 1 + 0.25 + 1 = 4.5.
    // ρ = 3.75 / √(4.5 · 4.5) = 5/6.
    expect(spearman(zip([1, 2, 2, 3], [1, 3, 2, 3]))).toBeCloseTo(5 / 6, 12);
  });

  it("matches an untied example against 1 − 6Σd²/(n(n²−1))", () => {
    // No ties, so the shortcut holds: ranks A = 1 2 3 4, B (of 10 30 20 40) = 1 3 2 4.
    // d = 0 −1 1 0, Σd² = 2 → ρ = 1 − 12 / (4 · 15) = 0.8.
    expect(spearman(zip([1, 2, 3, 4], [10, 30, 20, 40]))).toBeCloseTo(0.8, 12);
  });

  it("is 1 for identical ratings, −1 for reversed, null when a side is constant", () => {
    expect(spearman(zip([1, 3, 2, 5, 5], [1, 3, 2, 5, 5]))).toBeCloseTo(1, 12);
    expect(spearman(zip([1, 2, 3, 4, 5], [5, 4, 3, 2, 1]))).toBeCloseTo(-1, 12);
    expect(spearman(zip([4, 4, 4], [1, 2, 3]))).toBeNull();
    expect(spearman(zip([1], [1]))).toBeNull();
  });

  it("counts exact agreement as a share of pairs", () => {
    expect(exactAgreement(zip([1, 2, 2, 3], [1, 3, 2, 3]))).toBe(0.75);
    expect(exactAgreement([])).toBeNull();
  });
});

function line(
  task: string,
  status: Judgment["status"],
  ratings: Record<string, number> | null,
  answer: string | null = "a".repeat(64),
): Judgment {
  return {
    format: JUDGMENT_FORMAT,
    episode: { semantic_task_id: task, catalog_size: 100, condition: "SR-5", trial: 1 },
    answer_sha256: answer,
    status,
    reason: status === "judged" ? null : "reply_not_json",
    ratings,
    rationale: null,
    raw_reply: null,
    redactions: 0,
    prompt_sha256: "b".repeat(64),
    protocol_sha256: "c".repeat(64),
    judge: { agent: "command", model: null, reported_model: null, settings: {} },
    seed: 1,
    usage: null,
  };
}

describe("pairing two judgments files", () => {
  const dims = [{ id: "coherence", min: 1, max: 5 }];
  const side = (path: string, judgments: Judgment[]) => ({
    path,
    judgments,
    lines: judgments.map((_, i) => i + 1),
  });

  it("compares only episodes judged in both and counts the rest", () => {
    const a = side("a.jsonl", [
      line("t1", "judged", { coherence: 4 }),
      line("t2", "judged", { coherence: 2 }),
      line("t3", "malformed", null),
      line("t4", "judged", { coherence: 5 }),
    ]);
    const b = side("b.jsonl", [
      line("t1", "judged", { coherence: 4 }),
      line("t2", "judged", { coherence: 3 }),
      line("t3", "judged", { coherence: 3 }),
      line("t5", "judged", { coherence: 1 }),
    ]);
    const c = compareJudgments(a, b, dims);
    expect(c.problems).toEqual([]);
    expect(c.episodes).toEqual({
      in_both: 3,
      only_in_first: 1,
      only_in_second: 1,
      judged_in_both: 2,
      judged_in_one_only: 3, // t3 (b only), t4 (a only), t5 (b only)
      malformed_in_either: 1,
    });
    const d = c.dimensions[0];
    expect(d?.pairs).toBe(2);
    expect(d?.exact_agreements).toBe(1);
    expect([d?.mean_first, d?.mean_second]).toEqual([3, 3.5]);
  });

  it("refuses a pair whose answer hashes differ: the judges rated different answers", () => {
    const a = side("a.jsonl", [line("t1", "judged", { coherence: 4 })]);
    const b = side("b.jsonl", [line("t1", "judged", { coherence: 4 }, "d".repeat(64))]);
    const c = compareJudgments(a, b, dims);
    expect(c.problems).toHaveLength(1);
    expect(c.problems[0]).toMatchObject({ code: "answer_mismatch", file: "b.jsonl", line: 1 });
    expect(c.episodes.judged_in_both).toBe(0);
  });
});
