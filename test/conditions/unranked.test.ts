/**
 * A router that ranks nothing (its rankings completed to the catalog in id order) makes
 * `conditions freeze` warn on stderr (that the keyword router's bundled freeze does not is checked
 * in manifest.test.ts).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { namesNoRoute } from "../../src/conditions/routing/index.ts";
import { runCli } from "../helpers/cli.ts";
import { join, useTempDir } from "../helpers/temp.ts";

const endpoints = ["a.one", "b.two", "c.three"].map((route_id) => ({ route_id }));
const request = { query: "q", catalogSize: 3, endpoints } as unknown as Parameters<typeof namesNoRoute>[1];

describe("namesNoRoute", () => {
  it("is the catalog in id order, and nothing else", () => {
    expect(namesNoRoute(["a.one", "b.two", "c.three"], request)).toBe(true);
    expect(namesNoRoute(["b.two", "a.one", "c.three"], request)).toBe(false);
    expect(namesNoRoute(["a.one", "b.two"], request)).toBe(false);
  });
});

describe("`conditions freeze` with a router that ranks nothing", () => {
  const temp = useTempDir();
  let server: Server | null = null;
  afterEach(async () => {
    await new Promise((done) => (server === null ? done(null) : server.close(done)));
    server = null;
  });

  it("warns with the count of rankings that named no route", async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end('{"results": []}'));
    });
    await new Promise<void>((done) => server?.listen(0, "127.0.0.1", done));
    const { port } = server.address() as AddressInfo;
    const out = join(temp(), "manifest.json");
    const run = await runCli([
      "conditions",
      "freeze",
      "--router",
      `http:http://127.0.0.1:${port}/rank`,
      "--router-concurrency",
      "16",
      "--out",
      out,
    ]);
    const warning = run.err.match(
      /^warning: (.+): router_ranked_nothing: .* ranked no route for (\d+) of (\d+) /m,
    );
    expect(warning?.[1]).toBe(out);
    expect(warning?.[2]).toBe(warning?.[3]);
    expect(Number(warning?.[2])).toBeGreaterThan(0);
  });
});
