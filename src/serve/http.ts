/**
 * The HTTP shell around the handlers, on Node's own `http`: it authenticates, routes, limits sizes
 * and time, parses JSON, writes status codes and revision headers, logs one line per request and
 * shuts down gracefully. It decides nothing about tools, sessions or tasks (handlers.ts does).
 *
 * Order per request: bearer key (401) → path (404) and method (405) → body size (413) → JSON (400)
 * → the handler. One timer covers reading the body (408) and the handler (503). A refusal sent
 * before the body was read closes the connection: the unread rest is discarded as it arrives,
 * never held. The log line has the method, path (without the query), status, milliseconds and a
 * refusal's code — never the key, a header or a body.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { bearerCheck } from "./auth.ts";
import { declaredTooLarge, nestedDeeperThan, parseJsonBody, readBody } from "./body.ts";
import { type ConnectionGuard, guardConnections } from "./connections.ts";
import { answer, type EndpointName, type ServeContext } from "./handlers.ts";
import { type Reply, refuse } from "./replies.ts";

export const API_PREFIX = "/api/v1";

const ENDPOINTS: Readonly<Record<string, EndpointName>> = {
  [`${API_PREFIX}/search`]: "search",
  [`${API_PREFIX}/tools/by-ids`]: "inspect",
  [`${API_PREFIX}/tools/execute`]: "execute",
};

export interface ShellLimits {
  /** Bodies over this many bytes get 413 (1 MB, as the issue asks). */
  readonly maxBodyBytes: number;
  /** Reading the body and answering, per request. */
  readonly requestTimeoutMs: number;
  /**
   * Receiving the request's headers (slow-header clients are cut off). Node checks it every
   * `connectionsCheckIntervalMs`, so a connection is cut between this and this plus the interval.
   */
  readonly headersTimeoutMs: number;
  /** How often Node looks for connections past the header timeout (its default, 30 s, broke the bound). */
  readonly connectionsCheckIntervalMs: number;
  /** An idle kept-alive connection is closed after this long without a new request. */
  readonly keepAliveTimeoutMs: number;
  /** After a shutdown begins, how long requests in flight may take before their connections are cut. */
  readonly shutdownGraceMs: number;
  /** JSON nesting allowed in a body (the real requests nest 3 or 4 deep). */
  readonly maxJsonDepth: number;
  /** Open connections at once; past it a newcomer closes the oldest waiting one (connections.ts). */
  readonly maxConnections: number;
  /** Open connections from one remote address; loopback clients all share one, so it leaves room. */
  readonly maxConnectionsPerClient: number;
}

export const DEFAULT_SHELL_LIMITS: ShellLimits = {
  maxBodyBytes: 1_000_000,
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  // Cut within 10.5 s of the first byte (11 s of a silent connection's start): the bound documented is 12 s.
  connectionsCheckIntervalMs: 500,
  keepAliveTimeoutMs: 5_000,
  shutdownGraceMs: 10_000,
  maxJsonDepth: 64,
  maxConnections: 1_024,
  // Close to the whole: loopback clients share one address, and a lower cap only makes a slowloris
  // there churn faster (its newcomers close its own slow sockets) and race honest newcomers; it
  // keeps the last 24 slots for other addresses when one holds the rest with requests in flight.
  maxConnectionsPerClient: 1_000,
};

export interface ShellOptions {
  readonly context: ServeContext;
  readonly key: string;
  readonly host: string;
  readonly port: number;
  readonly limits?: Partial<ShellLimits>;
  /** One request line at a time (to stderr in the CLI). */
  readonly log: (line: string) => void;
  /** Milliseconds from any origin, for the log line's duration. */
  readonly clock?: () => number;
}

export interface RunningServer {
  /** `http://host:port/api/v1`. */
  readonly url: string;
  readonly port: number;
  /** Requests received and not yet answered. */
  inFlight(): number;
  /** Connections open now, and how many were closed to keep the connection caps. */
  connections(): { open: number; evicted: number };
  /** Stops accepting connections, lets requests in flight finish (up to the grace time), then resolves. */
  close(): Promise<void>;
  /** Cuts every connection now (a second Ctrl-C). */
  forceClose(): void;
}

/** The path for the log line: no query, printable ASCII only, bounded. */
function loggedPath(path: string): string {
  const cut = path.length > 200 ? `${path.slice(0, 200)}…` : path;
  return cut.replace(/[^\x21-\x7e…]/g, "?");
}

export function startServer(options: ShellOptions): Promise<RunningServer> {
  const limits = { ...DEFAULT_SHELL_LIMITS, ...options.limits };
  const state = { inFlight: 0, closing: false };
  const shell: Shell = {
    options,
    limits,
    authorized: bearerCheck(options.key),
    clock: options.clock ?? (() => performance.now()),
    revisions: options.context.world.revisions,
    state,
    released: () => {
      state.inFlight -= 1;
    },
  };
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: limits.connectionsCheckIntervalMs,
      // Node's own limit is a backstop behind the handler's timer, which answers first.
      requestTimeout: Math.max(limits.requestTimeoutMs + 1_000, limits.headersTimeoutMs),
      keepAliveTimeout: limits.keepAliveTimeoutMs,
    },
    (req, res) => handle(shell, req, res),
  );
  // Not `server.maxConnections`: at the cap it refuses the newcomer, which a slowloris turns into
  // refusing every honest client; the guard closes the oldest waiting connection instead.
  const guard = guardConnections(server, {
    ...limits,
    firstRequestWithinMs: limits.headersTimeoutMs + limits.connectionsCheckIntervalMs,
  });
  return listen(server, shell, guard);
}

/** What every request shares: the options, the limits, the key check, the clock and the server's state. */
interface Shell {
  readonly options: ShellOptions;
  readonly limits: ShellLimits;
  readonly authorized: (header: string | undefined) => boolean;
  readonly clock: () => number;
  readonly revisions: ServeContext["world"]["revisions"];
  readonly state: { inFlight: number; closing: boolean };
  /** A response's `close` listener, one for every request: the request is no longer in flight. */
  readonly released: () => void;
}

/**
 * One request in flight: what the answer and the log line need. One record per request, read by
 * shared functions (no closures made per request: under load they were a good part of the
 * garbage the server made beyond a bare node:http server's).
 */
interface Exchange {
  readonly shell: Shell;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly started: number;
  readonly path: string;
  readonly query: string;
  bodyRead: boolean;
  sent: boolean;
  timer: NodeJS.Timeout | undefined;
}

/** One request: counted in flight, answered once (by the pipeline or the timer), logged in one line. */
function handle(shell: Shell, req: IncomingMessage, res: ServerResponse): void {
  const target = req.url ?? "/";
  const queryAt = target.indexOf("?");
  const exchange: Exchange = {
    shell,
    req,
    res,
    started: shell.clock(),
    path: queryAt === -1 ? target : target.slice(0, queryAt),
    query: queryAt === -1 ? "" : target.slice(queryAt + 1),
    bodyRead: false,
    sent: false,
    timer: undefined,
  };
  shell.state.inFlight += 1;
  res.on("close", shell.released);
  exchange.timer = setTimeout(timedOut, shell.limits.requestTimeoutMs, exchange);
  void answerOnce(exchange);
}

/** The pipeline's reply (or the server's failure) sent, unless the timer sent one first. */
async function answerOnce(exchange: Exchange): Promise<void> {
  let reply: Reply;
  try {
    reply = await respond(exchange);
  } catch (error) {
    reply = { ...refuse("internal_error", "the server failed"), cause: (error as Error)?.name ?? "error" };
  }
  send(exchange, reply);
}

function timedOut(exchange: Exchange): void {
  send(
    exchange,
    exchange.bodyRead
      ? refuse("handler_timeout", "the answer took longer than the server's time limit")
      : refuse("request_timeout", "the request body did not arrive within the time limit"),
  );
}

function send(exchange: Exchange, reply: Reply): void {
  const { shell, req, res } = exchange;
  if (exchange.sent || res.destroyed) return;
  exchange.sent = true;
  clearTimeout(exchange.timer);
  // An unread body cannot be skipped on a kept-alive connection; a closing server keeps none.
  writeReply(res, reply, shell.revisions, !exchange.bodyRead || shell.state.closing);
  const ms = (shell.clock() - exchange.started).toFixed(1);
  const code = reply.code === undefined ? "" : ` ${reply.code}`;
  const cause = reply.cause === undefined ? "" : ` (${reply.cause})`;
  shell.options.log(
    `${req.method ?? "?"} ${loggedPath(exchange.path)} ${reply.status} ${ms}ms${code}${cause}`,
  );
}

/** The status line, headers and JSON body of one reply (the headers in the order they always had). */
function writeReply(
  res: ServerResponse,
  reply: Reply,
  revisions: Shell["revisions"],
  closeConnection: boolean,
): void {
  const text = reply.text ?? JSON.stringify(reply.body);
  const headers: Record<string, string | number> = {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    "x-qveris-api-version": revisions.api,
    "x-qveris-catalog-version": revisions.catalog,
  };
  if (reply.status === 401) headers["www-authenticate"] = 'Bearer realm="fabench"';
  if (reply.status === 405) headers["allow"] = "POST";
  if (closeConnection) headers["connection"] = "close";
  res.writeHead(reply.status, headers);
  res.end(text);
}

const NO_TOOL_IDS: readonly string[] = Object.freeze([]);

const tooLarge = (limits: ShellLimits) =>
  refuse("body_too_large", `bodies are limited to ${limits.maxBodyBytes} bytes`);

/** The checks in the order the header comment gives, then the handler; marks when the body was read. */
async function respond(exchange: Exchange): Promise<Reply> {
  const { shell, req } = exchange;
  const { limits } = shell;
  if (!shell.authorized(req.headers.authorization))
    return refuse("unauthorized", "send the server's key as `authorization: Bearer <key>`");
  const endpoint = ENDPOINTS[exchange.path];
  if (endpoint === undefined) return refuse("not_found", `no such path; the API is under ${API_PREFIX}`);
  if (req.method !== "POST") return refuse("method_not_allowed", "every endpoint takes POST");
  if (declaredTooLarge(req, limits.maxBodyBytes)) return tooLarge(limits);
  const read = await readBody(req, limits.maxBodyBytes);
  if (read.kind === "too_large") return tooLarge(limits);
  if (read.kind === "aborted") return refuse("request_timeout", "the request ended before its body");
  exchange.bodyRead = true;
  const json = parseJsonBody(read.bytes);
  if (!json.ok) return refuse("malformed_json", "the body is not one JSON value in UTF-8");
  if (nestedDeeperThan(json.value, limits.maxJsonDepth))
    return refuse("too_deep", `the body nests deeper than ${limits.maxJsonDepth} levels`);
  const toolIds = exchange.query === "" ? NO_TOOL_IDS : new URLSearchParams(exchange.query).getAll("tool_id");
  const client = req.socket.remoteAddress ?? "";
  return answer(endpoint, { body: json.value, toolIds, client }, shell.options.context);
}

/** Listens, then hands back the running server: its URL, requests in flight, graceful and forced close. */
function listen(server: Server, shell: Shell, guard: ConnectionGuard): Promise<RunningServer> {
  const { options, limits, state } = shell;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      const { port } = server.address() as AddressInfo;
      const host = options.host.includes(":") ? `[${options.host}]` : options.host;
      let closed: Promise<void> | null = null;
      resolve({
        url: `http://${host}:${port}${API_PREFIX}`,
        port,
        inFlight: () => state.inFlight,
        connections: () => ({ open: guard.open(), evicted: guard.evicted.count }),
        close: () => {
          closed ??= new Promise<void>((done) => {
            state.closing = true;
            const grace = setTimeout(() => server.closeAllConnections(), limits.shutdownGraceMs);
            server.close(() => {
              clearTimeout(grace);
              done();
            });
            server.closeIdleConnections();
          });
          return closed;
        },
        forceClose: () => server.closeAllConnections(),
      });
    });
  });
}
