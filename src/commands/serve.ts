/**
 * `fabench serve`: loads one catalog, the corpus and a router, starts the Discover → Call API on
 * them, and runs until SIGINT or SIGTERM (then lets requests in flight finish). The key comes from
 * FABENCH_SERVE_API_KEY, else is random and printed once on stdout — the startup lines are the only
 * thing on stdout, while the request log goes to stderr, so a log kept from stderr never holds it.
 */
import { randomUUID } from "node:crypto";
import { parseCorpusText, type Task, taskSchema } from "../authoring/index.ts";
import { createRouter } from "../conditions/routing/index.ts";
import {
  FabenchError,
  inputError,
  issuePath,
  type Problem,
  readTextFile,
  toolVersion,
  usageError,
} from "../core/index.ts";
import {
  createContext,
  createWorld,
  keyProblem,
  randomKey,
  type RunningServer,
  startServer,
  type World,
} from "../serve/index.ts";
import { type CliIo, EXIT } from "./shell/io.ts";
import { loadCatalogs } from "../world/index.ts";

export const SERVE_KEY_VARIABLE = "FABENCH_SERVE_API_KEY";
const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

export interface WorldOptions {
  readonly catalogSize: number;
  readonly catalogs: string;
  readonly corpus: string;
  readonly router: string;
  readonly routerArgs: readonly string[];
  readonly routerTimeoutMs: number;
}

export interface ServeOptions extends WorldOptions {
  readonly host: string;
  readonly port: number;
}

/** The tasks of a corpus file, each checked against the task schema (every problem listed). */
function loadTasks(path: string, catalogSha256: string, catalogSize: number): Task[] {
  const { rows, document } = parseCorpusText(readTextFile(path, "corpus").text, path);
  const problems: Problem[] = [];
  const tasks: Task[] = [];
  for (const row of rows) {
    const parsed = taskSchema.safeParse(row.value);
    if (parsed.success) tasks.push(parsed.data);
    else
      for (const issue of parsed.error.issues.slice(0, 3))
        problems.push({
          code: "invalid_task",
          message: `${row.location}: ${issuePath(issue.path)}: ${issue.message}`,
          file: path,
          line: row.line,
        });
  }
  if (problems.length > 0)
    throw inputError("corpus", "invalid_task", problems[0]?.message ?? "", { file: path, problems });
  // A frozen corpus names the catalogs it was written for; serving it with another is refused.
  const declared = (document as { catalogs?: unknown } | null)?.catalogs;
  if (Array.isArray(declared)) {
    const entry = declared.find((c: { size?: unknown }) => c?.size === catalogSize) as
      | { sha256?: unknown }
      | undefined;
    if (entry !== undefined && entry.sha256 !== catalogSha256)
      throw inputError(
        "corpus",
        "catalog_mismatch",
        `the corpus was frozen with catalog ${catalogSize} sha256 ${String(entry.sha256).slice(0, 12)}…, not the one in --catalogs (${catalogSha256.slice(0, 12)}…)`,
        { file: path },
      );
  }
  return tasks;
}

/** The frozen world the server answers from (the bench builds it the same way). */
export function loadServeWorld(options: WorldOptions, io: CliIo): World {
  // The router spec before the world loads: a mistyped --router comes back at once.
  const router = createRouter(options.router, {
    args: options.routerArgs,
    timeoutMs: options.routerTimeoutMs,
    path: io.env?.["PATH"] ?? "",
  });
  const [loaded] = loadCatalogs(options.catalogs, [options.catalogSize]);
  if (loaded === undefined) throw usageError("unknown_catalog", `no catalog ${options.catalogSize}`);
  const tasks = loadTasks(options.corpus, loaded.catalog.sha256, options.catalogSize);
  const world = createWorld({ catalog: loaded.catalog, tasks, router, version: toolVersion() });
  if (!world.ok)
    throw new FabenchError({
      kind: "input",
      stage: "serve",
      code: world.problems[0]?.code ?? "invalid_world",
      message: "",
      problems: world.problems.map((p) => ({ ...p, file: options.corpus })),
    });
  return world.value;
}

function resolveKey(io: CliIo): { key: string; chosen: boolean } {
  const given = io.env?.[SERVE_KEY_VARIABLE];
  if (given === undefined || given === "") return { key: randomKey(), chosen: false };
  const problem = keyProblem(given);
  if (problem !== null) throw usageError("bad_api_key", `${SERVE_KEY_VARIABLE} ${problem}`);
  return { key: given, chosen: true };
}

async function listen(options: ServeOptions, world: World, key: string, io: CliIo): Promise<RunningServer> {
  try {
    return await startServer({
      context: createContext(world, { now: Date.now, newId: randomUUID }),
      key,
      host: options.host,
      port: options.port,
      log: (line) => io.err(`${line}\n`),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    throw inputError(
      "serve",
      "cannot_listen",
      `cannot listen on ${options.host}:${options.port} (${code || (error as Error).message})${code === "EADDRINUSE" ? "; another program has that port, pick another with --port" : ""}`,
    );
  }
}

export async function serve(options: ServeOptions, io: CliIo): Promise<number> {
  if (options.port > 65_535) throw usageError("bad_number", `--port takes 0 to 65535, not ${options.port}`);
  const { key, chosen } = resolveKey(io);
  const world = loadServeWorld(options, io);
  if (!LOOPBACK.has(options.host))
    io.err(
      `warning: --host ${options.host} serves beyond this machine; anyone who can reach it and has the key can use it, over plain http\n`,
    );
  const server = await listen(options, world, key, io);
  io.out(
    `fabench serve: ${server.url} — catalog ${world.catalog.endpoint_count} (sha256 ${world.catalog.sha256.slice(0, 12)}…), router ${world.router.id}, ${world.taskByQuery.size} tasks\n`,
  );
  io.out(
    chosen
      ? `API key: from ${SERVE_KEY_VARIABLE}\n`
      : `API key (new for this run; set ${SERVE_KEY_VARIABLE} to choose one): ${key}\n`,
  );
  await new Promise<void>((resolve) => {
    let signals = 0;
    const stop = () => {
      signals += 1;
      if (signals > 1) return server.forceClose();
      io.err(
        `fabench serve: shutting down; ${server.inFlight()} request(s) in flight may finish (interrupt again to stop now)\n`,
      );
      void server.close().then(() => {
        offInterrupt?.();
        resolve();
      });
    };
    // The binary's interrupt is SIGINT and SIGTERM alike.
    const offInterrupt = io.onInterrupt?.(stop);
  });
  io.err("fabench serve: stopped\n");
  return EXIT.ok;
}
