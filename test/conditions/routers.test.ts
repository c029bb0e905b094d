import { chmodSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCatalog } from "../../src/conditions/catalog/index.ts";
import { createRouter, keywordRanking, tokenize } from "../../src/conditions/routing/index.ts";
import { FabenchError } from "../../src/core/index.ts";
import { join, useTempDir } from "../helpers/temp.ts";

const endpoints = buildCatalog(100).endpoints;

async function rejection(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(FabenchError);
    return (error as FabenchError).code;
  }
  throw new Error("expected a rejection");
}

describe("tokenize", () => {
  it("produces tokens for every language of the protocol", () => {
    expect(tokenize("材料MAT-H20014の現在のヤング率を教えてください")).toEqual(
      expect.arrayContaining(["材料", "現在", "ヤング", "mat", "h20014"]),
    );
    expect(tokenize("MAT-H20053의 현재 영률과 과거 기록을 비교해 주세요")).toEqual(
      expect.arrayContaining(["현재", "영률", "과거", "기록"]),
    );
    expect(tokenize("¿Cuál es el módulo de Young actual?")).toEqual(
      expect.arrayContaining(["cuál", "módulo", "young", "actual"]),
    );
    expect(tokenize("Exportiere das Datenartefakt zu Werkstoff")).toEqual([
      "exportiere",
      "datenartefakt",
      "werkstoff",
    ]);
    expect(tokenize("youngs_modulus materials__current")).toEqual([
      "youngs",
      "modulus",
      "materials",
      "current",
    ]);
  });
});

describe("the keyword router", () => {
  it("ranks every endpoint once, deterministically, ties by route id", () => {
    const ranking = keywordRanking("zzz qqq", endpoints);
    expect(ranking).toHaveLength(100);
    expect(new Set(ranking).size).toBe(100);
    expect(ranking).toEqual([...ranking].sort()); // no term matches: pure route-id order
  });

  it("can be fooled by the catalog's hard negatives, which share the canonical endpoint's words", () => {
    // The deprecated v1 API and the 2021 archive sit right behind the canonical route…
    expect(keywordRanking("current Young's modulus", endpoints).slice(0, 3)).toEqual([
      "materials.current",
      "materials_v1.properties",
      "materials_archive.current",
    ]);
    // …and the retired v1 export service outranks the live one.
    expect(keywordRanking("Exporta el artefacto de datos del material", endpoints).slice(0, 2)).toEqual([
      "exports_v1.export",
      "exports.export",
    ]);
  });

  it("finds the right family of endpoints from Korean, Japanese, Spanish and German queries", () => {
    expect(keywordRanking("소재 MAT-H1의 영률 과거 기록은?", endpoints).slice(0, 5)).toContain(
      "materials.history",
    );
    expect(
      keywordRanking("論文P-H1はどのような知見を報告していますか", endpoints)
        .slice(0, 5)
        .every((r) => r.startsWith("papers")),
    ).toBe(true);
    expect(keywordRanking("Exporta el artefacto de datos del material", endpoints).slice(0, 5)).toContain(
      "exports.export",
    );
    expect(keywordRanking("starte die Laufzeitumgebung neu", endpoints)[0]).toBe("runtime.restart");
  });

  it("has two weak baselines for sensitivity studies: names only, and a fixed random order", async () => {
    const request = { query: "export the artifact", catalogSize: 100, endpoints };
    const names = await createRouter("names").rank(request);
    expect(names.slice(0, 2)).toEqual(["exports.export", "exports_v1.export"]);
    const random = await createRouter("random:7").rank(request);
    expect(new Set(random).size).toBe(100);
    expect(await createRouter("random:7").rank(request)).toEqual(random);
    expect(await createRouter("random:8").rank(request)).not.toEqual(random);
    expect(createRouter("random:7").id).toBe("random:7");
  });
});

describe("external routers", () => {
  const temp = useTempDir();
  const script = (body: string) => {
    const path = join(temp(), "router.mjs");
    writeFileSync(path, `#!/usr/bin/env node\n${body}\n`);
    chmodSync(path, 0o755);
    return path;
  };
  const request = { query: "export the artifact", catalogSize: 100, endpoints };

  it("command: reads one JSON object, completes a partial ranking in route-id order", async () => {
    const path = script(
      `let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const q=JSON.parse(s);console.log(JSON.stringify({ranking:["exports__export", q.endpoints[5].route_id]}))})`,
    );
    const ranking = await createRouter(`command:${path}`, { path: process.env["PATH"] ?? "" }).rank(request);
    expect(ranking.slice(0, 2)).toEqual(["exports.export", endpoints[5]!.route_id]);
    expect(ranking).toHaveLength(100);
  });

  it.each([
    ["router_bad_response", "console.log('not json')"],
    ["router_bad_response", "console.log(JSON.stringify({ranking:['no.such_route']}))"],
    ["router_bad_response", "console.log(JSON.stringify({ranking:['exports.export','exports__export']}))"],
    ["router_failed", "process.exit(3)"],
  ])("command: reports %s", async (code, body) => {
    expect(
      await rejection(
        createRouter(`command:${script(body)}`, { path: process.env["PATH"] ?? "" }).rank(request),
      ),
    ).toBe(code);
  });

  it("command: times out", async () => {
    const path = script("setInterval(() => {}, 1000)"); // never answers; the router kills it
    expect(
      await rejection(
        createRouter(`command:${path}`, { timeoutMs: 300, path: process.env["PATH"] ?? "" }).rank(request),
      ),
    ).toBe("router_timeout");
  });

  describe("http", () => {
    let server: Server;
    let base = "";
    /** The answer to a request; `never` leaves it unanswered, so a time-out does not race the machine's speed. */
    let behaviour: (body: { query: string; limit: number }) => {
      status?: number;
      body?: string;
      never?: boolean;
    } = () => ({});
    beforeAll(async () => {
      server = createServer((req, res) => {
        let raw = "";
        req
          .on("data", (d) => (raw += d))
          .on("end", () => {
            const answer = behaviour(JSON.parse(raw) as { query: string; limit: number });
            if (!answer.never)
              res
                .writeHead(answer.status ?? 200, { "content-type": "application/json" })
                .end(answer.body ?? "{}");
          });
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rank`;
    });
    afterAll(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    );

    it("posts query and limit, and reads results best first, skipping routes the catalog lacks", async () => {
      let seen: unknown;
      behaviour = (body) => {
        seen = body;
        return {
          body: JSON.stringify({
            results: [
              { tool_id: "aux_profile_239.list" },
              { tool_id: "runtime.restart" },
              { tool_id: "exports__export" },
            ],
          }),
        };
      };
      const ranking = await createRouter(`http:${base}`).rank(request);
      expect(seen).toEqual({ query: "export the artifact", limit: 100 });
      expect(ranking.slice(0, 2)).toEqual(["runtime.restart", "exports.export"]);
    });

    it.each([
      ["router_bad_response", { body: "<html>" }],
      ["router_bad_response", { body: JSON.stringify({ hits: [] }) }],
      ["router_failed", { status: 503, body: "{}" }],
    ])("reports %s", async (code, answer) => {
      behaviour = () => answer;
      // The default time limit (30 s): these answers must be judged on what they say.
      expect(await rejection(createRouter(`http:${base}`).rank(request))).toBe(code);
    });

    it("reports router_timeout for a service that never answers", async () => {
      behaviour = () => ({ never: true });
      expect(await rejection(createRouter(`http:${base}`, { timeoutMs: 300 }).rank(request))).toBe(
        "router_timeout",
      );
    });
  });

  it("refuses an unknown router spec", () => {
    expect(() => createRouter("magic")).toThrow(FabenchError);
  });
});
