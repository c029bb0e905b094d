/**
 * What a provider adapter does: one request of a conversation in, one reply out. The conversation's
 * types live here because every user of a model — the agent loop, the judge, the discover-call
 * adapters — speaks them; `conditions` renders catalog endpoints into these shapes.
 */
export {};
