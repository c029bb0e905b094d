/**
 * The catalogs against literal values (route lists, counts and hashes read once from a build and
 * checked by hand against the spec files), the spec's own rules on every endpoint, the reply
 * templates against hand-written expectations, and what never reaches an agent.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  allEndpoints,
  buildCatalog,
  catalogSha256,
  catalogTiers,
  type Endpoint,
  nestingProblems,
  parseCatalog,
  renderReply,
  renderTemplate,
  specProblems,
  templateProblems,
  unmatchedObservation,
} from "../../src/conditions/catalog/index.ts";
import { renderTool, renderTools } from "../../src/conditions/execution/render.ts";
import { keywordRanking } from "../../src/conditions/routing/index.ts";
import { formatJsonFile } from "../../src/core/index.ts";
import { inspectedTool } from "../../src/serve/world.ts";

const c100 = buildCatalog(100);
const c250 = buildCatalog(250);

const SHA_100 = "87f63e4aa49a36e4d20aea6667abedd41bec3ca608f372ce4d5c7481e7730ac8";
const SHA_250 = "82d8ca59112bb9e768cebbc9491b6e9a1ba332e47525d7d8fbb5839a64d6e31d";

const BASE_ROUTES = [
  "materials.search",
  "materials.retrieve",
  "materials.current",
  "materials.history",
  "materials.test_records",
  "papers.search",
  "papers.retrieve",
  "papers.section",
  "papers.tables",
  "papers.citations",
  "instruments.list",
  "instruments.retrieve",
  "instruments.calibration",
  "instruments.readings",
  "samples.search",
  "samples.retrieve",
  "samples.custody",
  "samples.results",
  "samples.void_result",
  "standards.search",
  "standards.clause",
  "standards.limits",
  "sds.search",
  "sds.hazards",
  "sds.exposure_limits",
  "sds.properties",
  "inventory.list",
  "inventory.item",
  "inventory.reserve",
  "inventory.dispose",
  "inventory.delete",
  "suppliers.search",
  "suppliers.product",
  "suppliers.price",
  "suppliers.quote",
  "suppliers.quote_status",
  "suppliers.cancel_quote",
  "bookings.availability",
  "bookings.list",
  "bookings.create",
  "bookings.cancel",
  "exports.export",
  "exports.status",
  "exports.list",
  "exports.cancel",
  "runtime.status",
  "runtime.job",
  "runtime.logs",
  "runtime.restart",
  "runtime.rerun",
  "runtime.execute",
  "messaging.send",
  "messaging.post",
  "messaging.share",
  "messaging.channels",
];

const roles = (c: typeof c100) => ({
  base: c.endpoints.filter((e) => e.role === "base").length,
  hard_negative: c.endpoints.filter((e) => e.role === "hard_negative").length,
  distractor: c.endpoints.filter((e) => e.role === "distractor").length,
  distractor_tools: new Set(c.endpoints.filter((e) => e.role === "distractor").map((e) => e.tool)).size,
  hard_negative_tools: new Set(c.endpoints.filter((e) => e.role === "hard_negative").map((e) => e.tool)).size,
});

/** An endpoint without what the agent must never see. */
function stripped(e: Endpoint): Endpoint {
  const { role: _role, imitates: _imitates, replies: _replies, ...rest } = e;
  return { ...rest, role: "base" } as Endpoint;
}

describe("the catalogs", () => {
  it("record their format, size and hash", () => {
    expect([c100.format, c100.endpoint_count, c100.endpoints.length, c100.sha256]).toEqual([
      "fabench-catalog/v1",
      100,
      100,
      SHA_100,
    ]);
    expect([c250.format, c250.endpoint_count, c250.endpoints.length, c250.sha256]).toEqual([
      "fabench-catalog/v1",
      250,
      250,
      SHA_250,
    ]);
  });

  it("start with a base suite of 55 endpoints in 12 tools, keeping the old names where the route is the same", () => {
    const base = c100.endpoints.filter((e) => e.role === "base");
    expect(base.map((e) => e.route_id)).toEqual(BASE_ROUTES);
    expect(c100.endpoints.slice(0, 55).map((e) => e.route_id)).toEqual(BASE_ROUTES);
    expect(base.length).toBeGreaterThanOrEqual(40);
    expect([...new Set(base.map((e) => e.tool))]).toEqual([
      "materials",
      "papers",
      "instruments",
      "samples",
      "standards",
      "sds",
      "inventory",
      "suppliers",
      "bookings",
      "exports",
      "runtime",
      "messaging",
    ]);
    for (const old of [
      "papers.search",
      "papers.retrieve",
      "papers.citations",
      "materials.search",
      "materials.retrieve",
      "materials.current",
      "materials.history",
      "instruments.calibration",
      "instruments.readings",
      "inventory.list",
      "inventory.delete",
      "messaging.send",
      "messaging.share",
      "runtime.restart",
      "runtime.execute",
      "exports.export",
      "exports.status",
    ])
      expect(BASE_ROUTES).toContain(old);
    expect(base.filter((e) => e.destructive).map((e) => e.route_id)).toEqual([
      "samples.void_result",
      "inventory.dispose",
      "inventory.delete",
      "suppliers.cancel_quote",
      "bookings.cancel",
      "exports.cancel",
      "runtime.restart",
    ]);
  });

  it("give base routes realistic parameters: enums, optional filters, pagination, units, date ranges", () => {
    const base = c100.endpoints.filter((e) => e.role === "base");
    const param = (route: string, name: string) =>
      base.find((e) => e.route_id === route)?.parameters.properties[name] as Record<string, unknown>;
    expect(param("materials.current", "unit_system")).toEqual({
      type: "string",
      enum: ["as_recorded", "SI", "US_customary"],
      description:
        "units of the returned values: as recorded by the test laboratory, converted to SI, or to US customary units",
      default: "as_recorded",
    });
    expect(param("instruments.readings", "temperature_unit")?.["enum"]).toEqual(["degC", "K", "degF"]);
    expect(param("instruments.readings", "start")?.["format"]).toBe("date-time");
    expect(param("materials.history", "from_date")?.["format"]).toBe("date");
    expect(param("inventory.list", "limit")).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: 200,
      default: 50,
    });
    expect(param("exports.export", "format")?.["enum"]).toEqual([
      "csv",
      "tsv",
      "json",
      "parquet",
      "xlsx",
      "hdf5",
      "netcdf",
      "npz",
      "vtu",
      "tiff",
      "pdf",
    ]);
    const withEnums = base.filter((e) =>
      Object.values(e.parameters.properties).some((p) => Array.isArray(p["enum"])),
    ).length;
    const paged = base.filter(
      (e) => "page_token" in e.parameters.properties || "offset" in e.parameters.properties,
    ).length;
    const optional = base.filter(
      (e) => Object.keys(e.parameters.properties).length > e.parameters.required.length,
    ).length;
    expect([withEnums, paged, optional]).toEqual([28, 15, 40]);
    // Every parameter says what it is; every enum default is one of its values.
    for (const e of c250.endpoints)
      for (const [name, p] of Object.entries(e.parameters.properties)) {
        expect([e.route_id, name, typeof p["type"], typeof p["description"]]).toEqual([
          e.route_id,
          name,
          "string",
          "string",
        ]);
        if (Array.isArray(p["enum"]) && "default" in p) expect(p["enum"]).toContain(p["default"]);
        if (p["type"] === "array") expect(p["items"]).toBeDefined();
      }
  });

  it("mark every endpoint's role, and the 250 catalog adds hard negatives and unrelated tools to the 100", () => {
    expect(roles(c100)).toEqual({
      base: 55,
      hard_negative: 23,
      distractor: 22,
      distractor_tools: 6,
      hard_negative_tools: 17,
    });
    expect(roles(c250)).toEqual({
      base: 55,
      hard_negative: 57,
      distractor: 138,
      distractor_tools: 38,
      hard_negative_tools: 46,
    });
    // The 100 catalog ends exactly where the first tier ends.
    const tiers = catalogTiers();
    expect([tiers.base.length, tiers.first.length, tiers.second.length]).toEqual([55, 45, 150]);
    expect(c100.endpoints.slice(55).map((e) => e.route_id)).toEqual(tiers.first.map((e) => e.route_id));
  });

  it("name every route {tool}.{endpoint}, with no generated aux_ routes", () => {
    for (const e of allEndpoints()) {
      expect(e.route_id).toMatch(/^[a-z0-9_]+\.[a-z0-9_]+$/);
      expect(e.route_id).toBe(`${e.tool}.${e.endpoint}`);
      expect(e.function_name).toBe(`${e.tool}__${e.endpoint}`);
      expect(e.tool.startsWith("aux_")).toBe(false);
      expect(["base", "hard_negative", "distractor"]).toContain(e.role);
    }
  });

  it("make every hard negative imitate a base route, and show one for every base tool in the 100 catalog", () => {
    const base = new Set(BASE_ROUTES);
    for (const e of c250.endpoints)
      if (e.role === "hard_negative") expect(base.has(e.imitates ?? "")).toBe(true);
      else expect(e.imitates).toBeUndefined();
    const imitated = new Set(
      c100.endpoints.filter((e) => e.role === "hard_negative").map((e) => e.imitates?.split(".")[0]),
    );
    expect([...imitated].sort()).toEqual(
      [
        "bookings",
        "exports",
        "instruments",
        "materials",
        "messaging",
        "papers",
        "runtime",
        "samples",
        "sds",
        "standards",
        "inventory",
        "suppliers",
      ].sort(),
    );
    const archive = c100.endpoints.find((e) => e.route_id === "materials_archive.current");
    expect([archive?.imitates, Object.keys(archive?.parameters.properties ?? {})]).toEqual([
      "materials.current",
      ["material_id", "property", "unit_system"],
    ]);
  });

  it("describe every endpoint in its own words: no description and no sentence shared by two endpoints", () => {
    const all = allEndpoints();
    expect(new Set(all.map((e) => e.description)).size).toBe(all.length);
    const seen = new Map<string, string>();
    for (const e of all)
      for (const sentence of e.description.split(/(?<=[.;:])\s+/)) {
        expect([sentence, seen.get(sentence) ?? e.route_id]).toEqual([sentence, e.route_id]);
        seen.set(sentence, e.route_id);
      }
    // One description per tool, and no two tools share one.
    const byTool = new Map<string, Set<string>>();
    for (const e of all) byTool.set(e.tool, (byTool.get(e.tool) ?? new Set()).add(e.tool_description));
    expect([...byTool.values()].every((s) => s.size === 1)).toBe(true);
    expect(new Set(all.map((e) => e.tool_description)).size).toBe(byTool.size);
  });

  it("give every route its replies: success for writes, not-found or empty for reads, validation errors for all", () => {
    expect(specProblems()).toEqual([]);
    for (const e of allEndpoints()) {
      const r = e.replies;
      expect(r?.validation_error).toBeDefined();
      if (e.destructive) expect([e.route_id, r?.success !== undefined]).toEqual([e.route_id, true]);
      if (!e.read_only) expect(r?.unmatched).toBe("success");
      if (e.read_only)
        expect([e.route_id, r?.not_found !== undefined || r?.empty !== undefined]).toEqual([
          e.route_id,
          true,
        ]);
      expect(r?.[r.unmatched]).toBeDefined();
    }
    const destructive = c250.endpoints.filter((e) => e.destructive);
    expect(destructive.length).toBe(25);
  });

  it("nest: the 100 catalog is exactly the first 100 endpoints of the 250 catalog", () => {
    expect(c250.endpoints.slice(0, 100)).toEqual(c100.endpoints);
    expect(buildCatalog(70).endpoints).toEqual(c250.endpoints.slice(0, 70));
    expect(
      nestingProblems([
        { size: 100, catalog: c100, file: "a" },
        { size: 250, catalog: c250, file: "b" },
      ]),
    ).toEqual([]);
    const shuffled = { ...c100, endpoints: [...c100.endpoints].reverse() };
    expect(
      nestingProblems([
        { size: 100, catalog: shuffled, file: "a" },
        { size: 250, catalog: c250, file: "b" },
      ])[0]?.code,
    ).toBe("catalog_not_nested");
  });

  it("mix hard negatives and distractors in a catalog cut inside a tier", () => {
    expect(roles(buildCatalog(70))).toMatchObject({ base: 55, hard_negative: 7, distractor: 8 });
  });

  it("refuse sizes below the base suite or above what the spec holds", () => {
    expect(() => buildCatalog(54)).toThrow(RangeError);
    expect(buildCatalog(252).endpoint_count).toBe(252);
    expect(() => buildCatalog(253)).toThrow(/holds 252 endpoints/);
  });

  it("hash the sorted route ids, whatever order they are given in", () => {
    // Independently: sha256 of the compact JSON list of the (ASCII) route ids in sorted order.
    const sha = (ids: string[]) =>
      createHash("sha256")
        .update(JSON.stringify([...ids].sort()))
        .digest("hex");
    const ids100 = c100.endpoints.map((e) => e.route_id);
    const ids250 = c250.endpoints.map((e) => e.route_id);
    expect([sha(ids100), sha(ids250)]).toEqual([SHA_100, SHA_250]);
    expect(catalogSha256([...ids100].reverse())).toBe(SHA_100);
    expect(catalogSha256([...ids250].reverse())).toBe(SHA_250);
  });

  it("are byte-identical to the checked-in files", () => {
    expect(readFileSync("tasks/catalogs/100.json", "utf8")).toBe(formatJsonFile(c100));
    expect(readFileSync("tasks/catalogs/250.json", "utf8")).toBe(formatJsonFile(c250));
  });

  it("refuse a catalog whose recorded hash or count does not match its endpoints, or a hard negative imitating nothing", () => {
    const tampered = { ...c100, endpoints: c100.endpoints.slice(0, 99) };
    const result = parseCatalog(tampered, "100.json");
    expect(result.ok ? [] : result.problems.map((p) => p.code)).toEqual([
      "catalog_count_mismatch",
      "catalog_hash_mismatch",
    ]);
    const lost = c100.endpoints.map((e) =>
      e.route_id === "datasheets.nominal" ? { ...e, imitates: undefined } : e,
    );
    const parsed = parseCatalog(JSON.parse(JSON.stringify({ ...c100, endpoints: lost })), "100.json");
    expect(parsed.ok ? [] : parsed.problems.map((p) => p.code)).toEqual(["invalid_catalog"]);
  });
});

describe("tasks/catalog-spec.md", () => {
  it("lists every base route and every hard negative with the route it imitates", () => {
    const page = readFileSync("tasks/catalog-spec.md", "utf8");
    for (const e of allEndpoints()) {
      if (e.role === "base")
        expect([e.route_id, page.includes(`| \`${e.route_id}\` | ${e.description}`)]).toEqual([
          e.route_id,
          true,
        ]);
      if (e.role === "hard_negative")
        expect([e.route_id, page.includes(`| \`${e.route_id}\` | \`${e.imitates}\` |`)]).toEqual([
          e.route_id,
          true,
        ]);
    }
  });
});

describe("the spec check", () => {
  const base = allEndpoints();
  const find = (route: string) => base.find((e) => e.route_id === route) as Endpoint;

  it("finds a shared description, an imitation of no base route, a destructive route without success, a bad placeholder", () => {
    const dispose = find("inventory.dispose");
    const broken: Endpoint[] = [
      find("materials.search"),
      { ...find("materials.retrieve"), description: find("materials.search").description },
      { ...find("datasheets.nominal"), imitates: "materials.nowhere" },
      {
        ...dispose,
        replies: {
          unmatched: "not_found",
          not_found: dispose.replies?.not_found ?? {},
          validation_error: {},
        },
      },
      {
        ...find("papers.retrieve"),
        replies: {
          unmatched: "not_found",
          not_found: { detail: "no {doi} here {@message} }" },
          validation_error: {},
        },
      },
      { ...find("sds.hazards"), replies: { unmatched: "empty", empty: {} } },
    ];
    expect(specProblems(broken)).toEqual([
      "materials.retrieve: has the same description as materials.search",
      "datasheets.nominal: imitates materials.nowhere, which is not a base route",
      "inventory.dispose: writes but has no success reply",
      "papers.retrieve not_found/detail: placeholder {doi} names nothing it may",
      "papers.retrieve not_found/detail: placeholder {@message} names nothing it may",
      "papers.retrieve not_found/detail: a brace that is not a placeholder (write {{ or }})",
      "sds.hazards: has no validation_error reply",
    ]);
  });

  it("finds no problem in a template that uses its own parameters, @id and escaped braces", () => {
    expect(templateProblems(find("inventory.reserve"))).toEqual([]);
    const escaped = {
      ...find("papers.retrieve"),
      replies: { unmatched: "not_found" as const, not_found: { a: "{{literal}} {paper_id} {@id}" } },
    };
    expect(templateProblems(escaped)).toEqual([]);
  });
});

describe("reply templates", () => {
  const endpoint = (route: string) => c250.endpoints.find((e) => e.route_id === route) as Endpoint;

  it("fill {param} from the call, the schema default when it is omitted, nothing when there is neither", () => {
    const context = (args: Record<string, unknown>) => ({
      routeId: "inventory.list",
      parameters: endpoint("inventory.list").parameters,
      args,
    });
    expect(
      renderTemplate({ offset: "{offset}", limit: "{limit}", at: "{location}" }, context({ limit: 5 })),
    ).toEqual({
      offset: 0,
      limit: 5,
      at: null,
    });
    expect(
      renderTemplate({ text: "at {location}, page {offset}/{limit}" }, context({ location: "F3" })),
    ).toEqual({
      text: "at F3, page 0/50",
    });
    expect(renderTemplate({ text: "[{cas_number}] {{x}}" }, context({}))).toEqual({ text: "[] {x}" });
    expect(renderTemplate(["{limit}", { n: ["{offset}"] }], context({ offset: 7 }))).toEqual([
      50,
      { n: [7] },
    ]);
  });

  it("answer an unmatched call in the route's own words", () => {
    expect(unmatchedObservation(endpoint("materials.current"), { material_id: "MAT-0000-XX" })).toEqual({
      status: "not_found",
      error: { error: { code: "MATERIAL_NOT_FOUND", message: "material 'MAT-0000-XX' is not registered" } },
    });
    expect(unmatchedObservation(endpoint("papers.search"), { query: "alumina" })).toEqual({
      status: "ok",
      result: { total_hits: 0, hits: [], next_page_token: null },
      sources: [],
    });
    expect(unmatchedObservation(endpoint("bookings.cancel"), { booking_id: "BK-1" })).toEqual({
      status: "ok",
      result: { booking_id: "BK-1", status: "cancelled" },
      sources: [],
    });
    expect(
      renderReply(endpoint("exports.status"), "validation_error", {}, "missing required argument(s): job_id"),
    ).toEqual({
      type: "https://exports.lab.example/problems/invalid-request",
      title: "Invalid export request",
      status: 400,
      detail: "missing required argument(s): job_id",
    });
    expect(renderReply(endpoint("exports.status"), "empty", {})).toBeNull();
  });

  it("give a write the same {@id} for the same call and another for another call", () => {
    const reserve = endpoint("inventory.reserve");
    const args = { item_id: "CHM-00412", quantity: 25, unit: "g", reserved_for: "PRJ-0931" };
    const first = unmatchedObservation(reserve, args);
    const again = unmatchedObservation(reserve, {
      reserved_for: "PRJ-0931",
      unit: "g",
      quantity: 25,
      item_id: "CHM-00412",
    });
    const other = unmatchedObservation(reserve, { ...args, quantity: 26 });
    const id = (o: typeof first) => (o?.["result"] as Record<string, unknown>)["reservation_id"] as string;
    expect(id(first)).toMatch(/^RSV-[0-9A-F]{8}$/);
    expect(id(again)).toBe(id(first));
    expect(id(other)).not.toBe(id(first));
    expect((first?.["result"] as Record<string, unknown>)["quantity"]).toBe(25);
    // Independently: the first 8 hex digits of sha256("route\ncanonical JSON of the arguments").
    const hash = createHash("sha256")
      .update('inventory.reserve\n{"item_id":"CHM-00412","quantity":25,"reserved_for":"PRJ-0931","unit":"g"}')
      .digest("hex");
    expect(id(first)).toBe(`RSV-${hash.slice(0, 8).toUpperCase()}`);
  });
});

describe("what the agent sees", () => {
  it("never includes role, imitates or replies: the rendering is the same without them", () => {
    for (const e of c250.endpoints) {
      const tool = renderTool(e);
      expect(tool).toEqual(renderTool(stripped(e)));
      const text = JSON.stringify(tool);
      for (const word of [
        "hard_negative",
        "distractor",
        "imitates",
        "replies",
        "not_found",
        "validation_error",
      ])
        expect([e.route_id, text.includes(word)]).toEqual([e.route_id, false]);
      if (e.imitates !== undefined) expect(text).not.toContain(e.imitates);
      expect(inspectedTool(e)).toEqual(inspectedTool(stripped(e)));
    }
    expect(renderTools(c100.endpoints)).toEqual(renderTools(c100.endpoints.map(stripped)));
  });

  it("ranks the same with or without them: the keyword router does not read them", () => {
    const plain = c250.endpoints.map(stripped);
    for (const query of [
      "current Young's modulus of MAT-4471-TI",
      "cancel my booking of the SEM",
      "export ART-5520 as parquet",
    ])
      expect(keywordRanking(query, c250.endpoints)).toEqual(keywordRanking(query, plain));
  });
});
