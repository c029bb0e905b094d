/**
 * Connection caps that a slowloris cannot turn against honest clients. Node's own
 * `server.maxConnections` refuses the newcomer once the cap is reached, so 1,100 sockets that
 * never finish their headers lock every valid request out until the header timeout cuts them.
 * Here the cap is kept the other way round: a newcomer is accepted, and the oldest connection
 * that is *waiting* (no request in flight: it has not sent complete headers, or it is an idle
 * keep-alive) is closed to make room. A request being answered is never cut for a newcomer; when
 * every connection has one, the newcomer is the one closed.
 *
 * The same rule holds per client (the remote address): past `maxConnectionsPerClient` a client's
 * newcomer closes that client's own oldest waiting connection, so one address cannot hold every
 * slot with requests it drags out. Loopback clients all share 127.0.0.1, and an honest one still
 * gets answers: its fresh connection sends its headers at once, and the connections evicted first
 * are the older ones still waiting — the slow ones.
 */
import type { Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

export interface ConnectionLimits {
  /** Open connections at once; past it, the oldest waiting one is closed for the newcomer. */
  readonly maxConnections: number;
  /** Open connections from one remote address at once (the same rule, within that address). */
  readonly maxConnectionsPerClient: number;
  /**
   * A new connection whose first request's headers have not arrived by then is closed. Node's
   * header timeout starts at the first byte, so a connection that sends nothing is never cut by it.
   */
  readonly firstRequestWithinMs: number;
}

interface Tracked {
  readonly client: string;
  /** Requests whose headers arrived and whose answer is not finished. */
  busy: number;
  /** Whether any request ever arrived on it (a fresh one is evicted before an idle keep-alive). */
  served: boolean;
}

export interface ConnectionGuard {
  /** Connections open now. */
  open(): number;
  /** Connections closed to make room (newcomers refused included) or for sending no request in time. */
  readonly evicted: { count: number };
}

/** Tracks every connection of `server` and keeps both caps by evicting waiting connections. */
export function guardConnections(server: Server, limits: ConnectionLimits): ConnectionGuard {
  // Insertion order is connection age: the first waiting entry found is the oldest.
  const sockets = new Map<Socket, Tracked>();
  const perClient = new Map<string, number>();
  const evicted = { count: 0 };
  const drop = (socket: Socket) => {
    const tracked = sockets.get(socket);
    if (tracked === undefined) return;
    sockets.delete(socket);
    const left = (perClient.get(tracked.client) ?? 1) - 1;
    if (left === 0) perClient.delete(tracked.client);
    else perClient.set(tracked.client, left);
  };
  const evict = (socket: Socket) => {
    evicted.count += 1;
    drop(socket);
    socket.destroy();
  };
  server.on("connection", (socket: Socket) => {
    const client = socket.remoteAddress ?? "";
    sockets.set(socket, { client, busy: 0, served: false });
    perClient.set(client, (perClient.get(client) ?? 0) + 1);
    const silent = setTimeout(() => {
      if (sockets.get(socket)?.served === false) evict(socket);
    }, limits.firstRequestWithinMs);
    socket.once("close", () => {
      clearTimeout(silent);
      drop(socket);
    });
    if ((perClient.get(client) ?? 0) > limits.maxConnectionsPerClient)
      evict(oldestWaiting(sockets, client) ?? socket);
    if (!socket.destroyed && sockets.size > limits.maxConnections)
      evict(oldestWaiting(sockets, null) ?? socket);
  });
  server.on("request", (req: { socket: Socket }, res: ServerResponse) => {
    const tracked = sockets.get(req.socket);
    if (tracked === undefined) return;
    tracked.busy += 1;
    tracked.served = true;
    res.once("close", () => {
      tracked.busy -= 1;
    });
  });
  return { open: () => sockets.size, evicted };
}

/**
 * The oldest connection with no request in flight (of `client`, or of anyone when null): first
 * among those that never sent a request, else among idle keep-alives. Linear in the connections
 * passed over, which are the ones with a request in flight or (for a client) other clients'.
 */
function oldestWaiting(sockets: ReadonlyMap<Socket, Tracked>, client: string | null): Socket | undefined {
  let idle: Socket | undefined;
  for (const [socket, tracked] of sockets) {
    if (tracked.busy > 0 || (client !== null && tracked.client !== client)) continue;
    if (!tracked.served) return socket;
    idle ??= socket;
  }
  return idle;
}
