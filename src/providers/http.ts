/**
 * The `fetch` the SDK clients use: the platform's, with a cap on the size of a reply. A reply that
 * declares more than the cap (`Content-Length`) is refused before its body is read; one that
 * streams past it is cut off there, so no reply is ever held in memory whole beyond the cap. Either
 * way the request fails with `response_too_large`, which is not retried: the episode records it
 * and the run goes on.
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

/** `base` (the global `fetch` by default) with every response body limited to `maxBytes`. */
export function cappedFetch(maxBytes: number, base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    const declared = Number(response.headers.get("content-length") ?? "");
    if (Number.isFinite(declared) && declared > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw responseTooLarge(maxBytes);
    }
    if (response.body === null) return response;
    let seen = 0;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          // Erroring the stream cancels the source: nothing past the cap is read.
          if (seen > maxBytes) controller.error(responseTooLarge(maxBytes));
          else controller.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
