/**
 * A model turn under a native search condition (#34). The provider runs its search inside the
 * reply (Anthropic's server tools, OpenAI's hosted `tool_search`) and the turn is one request, as
 * always. A client-executed search (OpenAI `execution: "client"`) stops the reply at a
 * `tool_search_call`: the agent answers it with fabench's own engine (`clientSearch`) and asks
 * again, within the same turn, as a hosted search would have gone on inside one reply; a reply
 * the provider paused (Anthropic `pause_turn`) is sent back the same way so the model goes on.
 * Each request is metered on its own; a turn makes at most MAX_SEARCH_ROUNDS requests, so a
 * model that only ever searches ends its turn (with no call and its last text) instead of
 * spending without bound.
 */
import { clientSearchOutput } from "../../providers/index.ts";
import type { ProviderReply, ProviderRequest, ProviderSearch, ProviderUsage } from "../../providers/index.ts";
import type { AgentTurnResponse } from "./types.ts";

export const MAX_SEARCH_ROUNDS = 4;

export async function nativeSearchTurn(
  request: ProviderRequest,
  first: ProviderReply,
  clientSearch: (query: string) => readonly string[],
  send: (request: ProviderRequest) => Promise<ProviderReply>,
): Promise<AgentTurnResponse> {
  const known = new Set(request.tools.map((t) => t.name));
  const raw: unknown[] = [];
  const searches: ProviderSearch[] = [];
  const usages: ProviderUsage[] = [];
  let reply = first;
  for (let round = 1; ; round++) {
    raw.push(...(reply.raw ?? []));
    searches.push(...(reply.searches ?? []));
    usages.push(reply.usage);
    const pending = reply.pendingSearch;
    if (pending) {
      // fabench's engine over the frozen catalog; a name the request did not send is never loaded.
      const loaded = clientSearch(pending.query).filter((n) => known.has(n));
      searches.push({ query: pending.query, loaded });
      raw.push(clientSearchOutput(pending, loaded, request.tools));
    } else if (!reply.paused) break;
    if (reply.toolCalls.length > 0 || round >= MAX_SEARCH_ROUNDS) break;
    const messages = [
      ...request.messages,
      { role: "assistant" as const, content: "", tool_calls: [], raw: [...raw] },
    ];
    reply = await send({ ...request, messages });
  }
  return {
    text: reply.text,
    toolCalls: reply.toolCalls,
    usage: sumUsage(usages),
    ...(reply.model ? { model: reply.model } : {}),
    searches,
    ...(raw.length > 0 ? { raw } : {}),
  };
}

/** The turn's usage: each field summed over its requests, null when no request reported it. */
function sumUsage(usages: readonly ProviderUsage[]): ProviderUsage {
  const sum = (pick: (u: ProviderUsage) => number | null | undefined): number | null => {
    const known = usages.map(pick).filter((n): n is number => typeof n === "number");
    return known.length === 0 ? null : known.reduce((a, b) => a + b, 0);
  };
  const [only] = usages;
  if (usages.length === 1 && only) return only;
  return {
    input_tokens: sum((u) => u.input_tokens),
    output_tokens: sum((u) => u.output_tokens),
    cache_read_tokens: sum((u) => u.cache_read_tokens),
    cache_write_tokens: sum((u) => u.cache_write_tokens),
  };
}
