/**
 * The `fetch` the SDK clients use: the platform's, with a cap on the size of a reply and a time
 * limit on the whole request. A reply that declares more than the cap (`Content-Length`) is refused
 * before its body is read; one that streams past it is cut off there, so no reply is ever held in
 * memory whole beyond the cap. Either way the request fails with `response_too_large`, which is not
 * retried: the episode records it and the run goes on.
 *
 * The SDKs' own `timeout` stops at the headers: a server that sends them and then trickles its
 * body a byte at a time would hold a request forever. Here one timer covers the request from the
 * moment it is sent until its body has been read to the end (or cancelled); when it fires, the
 * body stream fails with `provider_timeout` (retried like any time-out) and the connection is
 * aborted.
 */
import { FabenchError } from "../core/index.ts";

/** The default `--max-response-bytes`: 1 MB (decimal), far above any reply a turn allows. */
export const DEFAULT_MAX_RESPONSE_BYTES = 1_000_000;

export function responseTooLarge(maxBytes: number): FabenchError {
  return new FabenchError({
    kind: "input",
    stage: "provider",
    code: "response_too_large",
    message: `the provider's reply is larger than --max-response-bytes ${maxBytes}`,
  });
}

export function requestTimedOut(timeoutMs: number): FabenchError {
  return new FabenchError({
    kind: "input",
    stage: "provider",
    code: "provider_timeout",
    message: `the provider's reply did not arrive in full within --request-timeout ${timeoutMs}`,
  });
}

/** Starts a timer that calls `fire` after `ms`; the function it returns cancels it. Injectable for tests. */
export type StartTimer = (ms: number, fire: () => void) => () => void;

export const realTimer: StartTimer = (ms, fire) => {
  const timer = setTimeout(fire, ms);
  // A timer left behind by a body nobody reads must not keep the process alive.
  timer.unref?.();
  return () => clearTimeout(timer);
};

export interface FetchLimits {
  /** The largest body read; null: no cap (batch result files, capped per line instead). */
  readonly maxBytes: number | null;
  /** The time limit of the whole request, body included; null: none. */
  readonly timeoutMs: number | null;
  readonly base?: typeof fetch;
  readonly timer?: StartTimer;
}

/** `base` (the global `fetch` by default) with every response body limited to `maxBytes`. */
export function cappedFetch(maxBytes: number, base: typeof fetch = fetch): typeof fetch {
  return boundedFetch({ maxBytes, timeoutMs: null, base });
}

/** `base` with a size cap on every reply and one time limit on each request, headers and body. */
export function boundedFetch(limits: FetchLimits): typeof fetch {
  const base = limits.base ?? fetch;
  const timer = limits.timer ?? realTimer;
  const { maxBytes, timeoutMs } = limits;
  return async (input, init) => {
    const flight = openRequest(init?.signal ?? null, timeoutMs, timer);
    let response: Response;
    try {
      response = await base(input, { ...init, signal: flight.controller.signal });
    } catch (error) {
      flight.settle();
      throw flight.fired ? flight.timeout : error;
    }
    const declared = Number(response.headers.get("content-length") ?? "");
    if (maxBytes !== null && Number.isFinite(declared) && declared > maxBytes) {
      flight.settle();
      await response.body?.cancel().catch(() => undefined);
      throw responseTooLarge(maxBytes);
    }
    if (response.body === null) {
      flight.settle();
      return response;
    }
    return limitBody(response, response.body, maxBytes, flight);
  };
}

/** One request in flight: its abort controller, its timer's state, and how to let both go. */
interface InFlight {
  readonly controller: AbortController;
  readonly timeout: FabenchError | null;
  fired: boolean;
  // Set once the body stream exists: the timer errors it before the connection is aborted, so
  // the reader sees the time-out and not whatever the platform makes of the abort.
  failBody: ((error: unknown) => void) | null;
  /** Cancels the timer and stops forwarding the caller's abort. */
  settle: () => void;
}

/** Links the caller's signal to a fresh controller and starts the request's one timer. */
function openRequest(outer: AbortSignal | null, timeoutMs: number | null, timer: StartTimer): InFlight {
  const controller = new AbortController();
  const forward = () => controller.abort(outer?.reason);
  if (outer?.aborted) forward();
  else outer?.addEventListener("abort", forward, { once: true });
  const timeout = timeoutMs === null ? null : requestTimedOut(timeoutMs);
  const flight: InFlight = { controller, timeout, fired: false, failBody: null, settle: () => undefined };
  const cancelTimer =
    timeoutMs === null
      ? () => undefined
      : timer(timeoutMs, () => {
          flight.fired = true;
          flight.failBody?.(timeout);
          controller.abort(timeout);
        });
  flight.settle = () => {
    cancelTimer();
    outer?.removeEventListener("abort", forward);
  };
  return flight;
}

/** The response again, its body read through a stream that stops at the cap or when the timer fires. */
function limitBody(
  response: Response,
  source: NonNullable<Response["body"]>,
  maxBytes: number | null,
  flight: InFlight,
): Response {
  const reader = source.getReader();
  let seen = 0;
  let ended = false;
  const end = (controllerOf: ReadableStreamDefaultController<Uint8Array>, error?: unknown) => {
    if (ended) return;
    ended = true;
    flight.settle();
    if (error === undefined) controllerOf.close();
    else controllerOf.error(error);
  };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      flight.failBody = (error) => end(c, error);
      if (flight.fired) end(c, flight.timeout);
    },
    async pull(c) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        end(c, flight.fired ? flight.timeout : error);
        return;
      }
      if (ended) return;
      if (chunk.done) return end(c);
      seen += chunk.value.byteLength;
      if (maxBytes !== null && seen > maxBytes) {
        // Nothing past the cap is read: the source is cancelled and the connection let go.
        end(c, responseTooLarge(maxBytes));
        reader.cancel().catch(() => undefined);
        return;
      }
      c.enqueue(chunk.value);
    },
    cancel(reason) {
      ended = true;
      flight.settle();
      return reader.cancel(reason).catch(() => undefined);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
