import { describe, expect, it } from "vitest";
import { BATCH_PRICE_FACTOR, Budget } from "../../src/providers/index.ts";

// USD per million tokens: input 2, cached input 0.5, output 8.
const price = { input: 2, cached_input: 0.5, output: 8 };
const usage = { input_tokens: 1000, output_tokens: 100, cache_read_tokens: 0, cache_write_tokens: 0 };

describe("one spending ledger", () => {
  it("charges the batch price in the cap and in the reported spend alike", () => {
    // Synchronous: 1000 × 2 + 100 × 8 = 2800 per million = $0.0028; batch bills half: $0.0014.
    const full = new Budget(null, price);
    full.settle(0, usage, 0, 0);
    expect(full.spentUsd).toBeCloseTo(0.0028, 12);
    const batch = new Budget(0.01, price, BATCH_PRICE_FACTOR);
    batch.settle(batch.reserve(1000, 100), usage, 0, 0);
    expect(batch.spentUsd).toBeCloseTo(0.0014, 12);
  });

  it("lets a batch run spend up to its cap at the batch price, not stop at half of it", () => {
    // Worst case of one request: (1000 × 2 + 500 × 8) / 1e6 = $0.006 synchronous, $0.003 in batch.
    const sync = new Budget(0.01, price);
    sync.reserve(1000, 500);
    expect(() => sync.reserve(1000, 500)).toThrow(/could cost up to \$0\.0060/);
    const batch = new Budget(0.01, price, BATCH_PRICE_FACTOR);
    batch.reserve(1000, 500);
    batch.reserve(1000, 500);
    batch.reserve(1000, 500); // $0.009 reserved
    expect(() => batch.reserve(1000, 500)).toThrow(/could cost up to \$0\.0030/);
  });

  it("knows when it has no price, so a run reports no spend instead of $0", () => {
    expect(new Budget(null, null).priced).toBe(false);
    expect(new Budget(null, price).priced).toBe(true);
  });
});
