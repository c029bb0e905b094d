/**
 * The catalogs against literal values, read once from the checked-in tasks/catalogs/100.json and
 * 250.json (and checked by hand against the preregistered naming rule), never recomputed here
 * from the formula the implementation uses.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  buildCatalog,
  catalogSha256,
  nestingProblems,
  parseCatalog,
} from "../../src/conditions/catalog/index.ts";
import { formatJsonFile } from "../../src/core/index.ts";

const c100 = buildCatalog(100);
const c250 = buildCatalog(250);

const SHA_100 = "9c08e0544ce11fd178d7582fea05c9f1f650b9bdc48d796a728de0c230bb0a3e";
const SHA_250 = "e487083bfcb72cc2307055914dc06dc6e03c276e80f6da5bb215094cd8eaadcb";

const BASE_ROUTES = [
  "papers.search",
  "papers.retrieve",
  "papers.citations",
  "papers.summarize",
  "materials.search",
  "materials.retrieve",
  "materials.current",
  "materials.history",
  "materials.forecast",
  "instruments.calibration",
  "instruments.readings",
  "inventory.list",
  "inventory.create",
  "inventory.update",
  "inventory.delete",
  "messaging.send",
  "messaging.share",
  "credits.create",
  "credits.cancel",
  "credits.refund",
  "runtime.restart",
  "runtime.execute",
  "exports.export",
  "exports.status",
];

const NOT_CANONICAL = "Not the canonical service for this data: a legacy mirror kept for old integrations.";

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

  it("start with the 24 base endpoints in 8 tools", () => {
    const base = c100.endpoints.slice(0, 24);
    expect(base.map((e) => e.route_id)).toEqual(BASE_ROUTES);
    expect([...new Set(base.map((e) => e.tool))]).toEqual([
      "papers",
      "materials",
      "instruments",
      "inventory",
      "messaging",
      "credits",
      "runtime",
      "exports",
    ]);
    expect(base.filter((e) => e.destructive).map((e) => e.route_id)).toEqual(["inventory.delete"]);
    expect(base.filter((e) => e.read_only).map((e) => e.route_id)).toEqual([
      "papers.search",
      "papers.retrieve",
      "papers.citations",
      "papers.summarize",
      "materials.search",
      "materials.retrieve",
      "materials.current",
      "materials.history",
      "materials.forecast",
      "instruments.calibration",
      "instruments.readings",
      "inventory.list",
      "exports.status",
    ]);
    const current = c100.endpoints[6]!;
    expect(current.route_id).toBe("materials.current");
    expect(current.function_name).toBe("materials__current");
    // One route serves every property: the property is a parameter, not a route.
    expect(Object.keys(current.parameters.properties)).toEqual(["material_id", "property"]);
    expect(current.parameters.required).toEqual(["material_id"]);
  });

  it("fill up with hard negatives and generic distractors, alternating while the hard ones last", () => {
    // [position, route id, read-only, destructive, marked as not the canonical service]
    const expected: Array<[number, string, boolean, boolean, boolean]> = [
      [24, "materials_archive.current", true, false, false],
      [25, "aux_patent_000.search", true, false, false],
      [26, "materials_v1.current", true, false, false],
      [27, "aux_dataset_001.refund", false, false, false],
      [28, "materials_nominal.lookup", true, false, false],
      [29, "aux_sample_002.merge", false, false, true],
      [87, "aux_job_031.translate", true, false, false],
      [88, "aux_queue_032.search", true, false, true],
      [99, "aux_experiment_043.share", false, false, false],
      [100, "aux_protocol_044.execute", false, false, true],
      [101, "aux_invoice_045.cancel", false, false, false],
      [149, "aux_purchase_093.execute", false, false, false],
      [249, "aux_model_193.translate", true, false, false],
    ];
    for (const [position, route, readOnly, destructive, notCanonical] of expected) {
      const e = c250.endpoints[position]!;
      expect([
        position,
        e.route_id,
        e.read_only,
        e.destructive,
        e.description.includes(NOT_CANONICAL),
      ]).toEqual([position, route, readOnly, destructive, notCanonical]);
      if (position < 100) expect(c100.endpoints[position]!.route_id).toBe(route);
    }
    const archive = c250.endpoints[24]!;
    // A hard negative shares the canonical endpoint's words and says why it is not the source.
    expect(archive.description).toBe(
      "Property values of a material as they stood in the 2019 archive snapshot; later measurements are not included.",
    );
    expect(Object.keys(archive.parameters.properties)).toEqual(["material_id", "property"]);
    expect(c250.endpoints[29]!.description).toBe(`Merge two sample records into one. ${NOT_CANONICAL}`);
    expect(c250.endpoints[25]!.tool).toBe("aux_patent_000");
    expect(c250.endpoints[25]!.function_name).toBe("aux_patent_000__search");
  });

  it("count their tools, destructive, read-only and hard-negative endpoints", () => {
    const BASE_TOOLS = [
      "papers",
      "materials",
      "instruments",
      "inventory",
      "messaging",
      "credits",
      "runtime",
      "exports",
    ];
    const counts = (c: typeof c100) => ({
      tools: new Set(c.endpoints.map((e) => e.tool)).size,
      read_only: c.endpoints.filter((e) => e.read_only).length,
      hard_negatives: c.endpoints.filter((e) => !e.tool.startsWith("aux_") && !BASE_TOOLS.includes(e.tool))
        .length,
      destructive: c.endpoints.filter((e) => e.destructive).map((e) => e.route_id),
    });
    // All 32 hard negatives sit in the first 88 endpoints, so both catalogs hold every one.
    expect(counts(c100)).toEqual({
      tools: 81,
      read_only: 58,
      hard_negatives: 32,
      destructive: [
        "inventory.delete",
        "aux_purchase_013.delete",
        "inventory_archive.delete",
        "aux_patent_040.delete",
      ],
    });
    expect(counts(c250)).toEqual({
      tools: 231,
      read_only: 125,
      hard_negatives: 32,
      destructive: [
        "inventory.delete",
        "aux_purchase_013.delete",
        "inventory_archive.delete",
        "aux_patent_040.delete",
        "aux_policy_067.delete",
        "aux_device_094.delete",
        "aux_dataset_121.delete",
        "aux_contract_148.delete",
        "aux_sensor_175.delete",
      ],
    });
  });

  it("nest: the 100 catalog is exactly the first 100 endpoints of the 250 catalog", () => {
    expect(c250.endpoints.slice(0, 100)).toEqual(c100.endpoints);
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

  it("hash the sorted route ids, whatever order they are given in", () => {
    // Independently: sha256 of the compact JSON list of the (ASCII) route ids in sorted order.
    const sha = (ids: string[]) =>
      createHash("sha256")
        .update(JSON.stringify([...ids].sort()))
        .digest("hex");
    const ids100 = c100.endpoints.map((e) => e.route_id);
    const ids250 = c250.endpoints.map((e) => e.route_id);
    expect([sha(ids100), sha(ids250)]).toEqual([SHA_100, SHA_250]);
    expect(catalogSha256(ids100)).toBe(SHA_100);
    expect(catalogSha256([...ids100].reverse())).toBe(SHA_100);
    expect(catalogSha256([...ids250].reverse())).toBe(SHA_250);
  });

  it("are byte-identical to the checked-in files", () => {
    expect(readFileSync("tasks/catalogs/100.json", "utf8")).toBe(formatJsonFile(c100));
    expect(readFileSync("tasks/catalogs/250.json", "utf8")).toBe(formatJsonFile(c250));
    expect(JSON.parse(readFileSync("tasks/catalogs/250.json", "utf8")).sha256).toBe(SHA_250);
  });

  it("refuse a catalog whose recorded hash or count does not match its endpoints", () => {
    const tampered = { ...c100, endpoints: c100.endpoints.slice(0, 99) };
    const result = parseCatalog(tampered, "100.json");
    expect(result.ok ? [] : result.problems.map((p) => p.code)).toEqual([
      "catalog_count_mismatch",
      "catalog_hash_mismatch",
    ]);
  });
});
