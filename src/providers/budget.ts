/**
 * Prices and the spending cap. A price table gives USD per million input, cached-input and output
 * tokens per model. Before each request the budget reserves what the request could cost at most
 * (its input plus the full output allowance); a request that could take spending past the cap is
 * never sent. After the reply the reservation is replaced by the actual cost.
 */
import { z } from "zod";
import { FabenchError } from "../core/index.ts";
import type { ProviderUsage } from "./types.ts";

export const priceSchema = z.strictObject({
  input: z.number().nonnegative(),
  cached_input: z.number().nonnegative(),
  output: z.number().nonnegative(),
});
export const priceTableSchema = z.strictObject({
  currency: z.literal("USD"),
  /** When the figures were read (prices change; a table says how old it is). */
  as_of: z.iso.date().optional(),
  note: z.string().optional(),
  unit: z.literal("per_million_tokens"),
  models: z.record(z.string(), priceSchema),
});

export type Price = z.infer<typeof priceSchema>;
export type PriceTable = z.infer<typeof priceTableSchema>;

export function costUsd(
  price: Price,
  tokens: { input: number; cachedInput: number; output: number },
): number {
  return (
    ((tokens.input - tokens.cachedInput) * price.input +
      tokens.cachedInput * price.cached_input +
      tokens.output * price.output) /
    1_000_000
  );
}

/** The batch APIs (Anthropic Message Batches, OpenAI Batch) bill half the synchronous price. */
export const BATCH_PRICE_FACTOR = 0.5;

/**
 * The one spending ledger of a run: the cap is checked against it and the spend a run reports is
 * read from it, so a discount (batch mode) applies to both or to neither.
 */
export class Budget {
  private spent = 0;
  private reserved = 0;

  constructor(
    private readonly limitUsd: number | null,
    private readonly price: Price | null,
    /** What the provider bills relative to the price table: 1, or BATCH_PRICE_FACTOR in batch mode. */
    private readonly priceFactor = 1,
  ) {}

  /** Whether a price is known, so that spend means something. */
  get priced(): boolean {
    return this.price !== null;
  }

  get spentUsd(): number {
    return this.spent;
  }

  /** Reserves a request's worst case; throws `budget_exhausted` (the request is not sent) past the cap. */
  reserve(inputTokens: number, maxOutputTokens: number): number {
    if (this.price === null || this.limitUsd === null) return 0;
    const worst =
      costUsd(this.price, { input: inputTokens, cachedInput: 0, output: maxOutputTokens }) * this.priceFactor;
    if (this.spent + this.reserved + worst > this.limitUsd)
      throw new FabenchError({
        kind: "input",
        stage: "budget",
        code: "budget_exhausted",
        message: `the next request could cost up to $${worst.toFixed(4)}; $${this.spent.toFixed(4)} of $${this.limitUsd} is spent`,
      });
    this.reserved += worst;
    return worst;
  }

  /** Replaces a reservation with what the provider reported (or the local count when it reports nothing). */
  settle(
    reservation: number,
    usage: ProviderUsage,
    localInputTokens: number,
    localOutputTokens: number,
  ): void {
    this.reserved -= reservation;
    if (this.price === null) return;
    this.spent +=
      costUsd(this.price, usageTokens(usage, localInputTokens, localOutputTokens)) * this.priceFactor;
  }

  release(reservation: number): void {
    this.reserved -= reservation;
  }
}

/**
 * Tokens to price from a provider's usage: cache reads at the cached price; cache writes at the
 * plain input price (a provider's write premium is not modelled); local counts where it reported none.
 */
export function usageTokens(
  usage: ProviderUsage | null,
  localInput: number,
  localOutput: number,
): { input: number; cachedInput: number; output: number } {
  const cached = usage?.cache_read_tokens ?? 0;
  return {
    input: (usage?.input_tokens ?? localInput) + (usage?.cache_write_tokens ?? 0) + cached,
    cachedInput: cached,
    output: usage?.output_tokens ?? localOutput,
  };
}
