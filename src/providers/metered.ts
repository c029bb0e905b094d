/**
 * One paid request under a run's spending cap and rate limits — the agent loop's turns and the
 * judge's requests go through here alike. The worst case (the input plus the whole output
 * allowance) is reserved before anything is sent, so concurrent requests cannot overshoot the cap
 * together; it is released if the request fails and settled with the provider's reported usage
 * (or the local count) when it succeeds.
 */
import type { Budget } from "./budget.ts";
import type { RateLimiter } from "./reliability.ts";
import type { ProviderReply } from "./types.ts";

export interface Meter {
  readonly budget: Budget;
  readonly limiter: RateLimiter;
  /** Counts a reply's output tokens where the provider reports none. */
  readonly countOutput: (text: string) => number;
}

export async function meteredRequest(
  meter: Meter,
  inputTokens: number,
  maxOutputTokens: number,
  send: () => Promise<ProviderReply>,
): Promise<ProviderReply> {
  const reservation = meter.budget.reserve(inputTokens, maxOutputTokens);
  let reply: ProviderReply;
  try {
    await meter.limiter.acquire(inputTokens + maxOutputTokens);
    reply = await send();
  } catch (error) {
    meter.budget.release(reservation);
    throw error;
  }
  meter.budget.settle(reservation, reply.usage, inputTokens, meter.countOutput(reply.text));
  return reply;
}
