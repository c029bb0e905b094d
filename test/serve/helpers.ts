/**
 * The frozen world as `fabench serve` loads it (catalog 100, the bundled corpus, the keyword
 * router), a server on a free loopback port with a fixed key and captured log, and a plain POST.
 */
import type { Task } from "../../src/authoring/index.ts";
import { loadServeWorld } from "../../src/commands/serve.ts";
import { createRouter } from "../../src/conditions/routing/index.ts";
import { bundled } from "../helpers/bundled.ts";
import { WORLD_TASKS } from "../helpers/world-tasks.ts";
import {
  type ContextOptions,
  createContext,
  createWorld,
  type RunningServer,
  type ServeContext,
  type ShellLimits,
  startServer,
  type World,
} from "../../src/serve/index.ts";

export const KEY = "test-key-0123456789abcdef";

const worlds = new Map<string, World>();

export function testWorld(catalogSize = 100, router = "keyword"): World {
  const name = `${catalogSize} ${router}`;
  const cached = worlds.get(name);
  if (cached !== undefined) return cached;
  const world = loadServeWorld(
    {
      catalogSize,
      catalogs: "tasks/catalogs",
      corpus: "tasks/final-answer-corpus.json",
      router,
      routerArgs: [],
      routerTimeoutMs: 30_000,
    },
    { out: () => undefined, err: () => undefined },
  );
  worlds.set(name, world);
  return world;
}

/** A world of hand-written v5 tasks (test/helpers/world-tasks.ts) on catalog 100 with the keyword router. */
export function worldOf(tasks: readonly Task[] = WORLD_TASKS): World {
  const catalog = bundled().catalogs.find((c) => c.size === 100)!.catalog;
  const router = createRouter("keyword", { args: [], timeoutMs: 30_000, path: "" });
  const world = createWorld({ catalog, tasks, router, version: "0.1.0" });
  if (!world.ok) throw new Error(world.problems.map((p) => p.message).join("; "));
  return world.value;
}

/** A context with a clock the test moves and ids `id-1`, `id-2`, … */
export function testContext(
  world: World = testWorld(),
  options: Partial<ContextOptions> = {},
): { context: ServeContext; clock: { now: number } } {
  const clock = { now: 1_700_000_000_000 };
  let ids = 0;
  const context = createContext(world, {
    now: () => clock.now,
    newId: () => `id-${++ids}`,
    ...options,
  });
  return { context, clock };
}

export interface TestServer {
  readonly server: RunningServer;
  readonly url: string;
  readonly logs: string[];
  readonly context: ServeContext;
  post(path: string, body: unknown, init?: { key?: string | null }): Promise<Answer>;
}

export interface Answer {
  readonly status: number;
  readonly json: Record<string, unknown>;
  readonly headers: Headers;
}

export async function startTestServer(
  options: { world?: World; limits?: Partial<ShellLimits>; context?: ServeContext } = {},
): Promise<TestServer> {
  const context = options.context ?? testContext(options.world).context;
  const logs: string[] = [];
  const server = await startServer({
    context,
    key: KEY,
    host: "127.0.0.1",
    port: 0,
    log: (line) => logs.push(line),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
  });
  return {
    server,
    url: server.url,
    logs,
    context,
    post: async (path, body, init = {}) => {
      const key = init.key === undefined ? KEY : init.key;
      const response = await fetch(`${server.url}${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(key === null ? {} : { authorization: `Bearer ${key}` }),
        },
        body: typeof body === "string" ? body : JSON.stringify(body),
      });
      const text = await response.text();
      return {
        status: response.status,
        json: JSON.parse(text) as Record<string, unknown>,
        headers: response.headers,
      };
    },
  };
}
