/**
 * The catalogs against literal values, read once from the checked-in tasks/catalogs/100.json and
 * 250.json (and checked by hand against the preregistered naming rule), never recomputed here
 * from the formula the implementation uses.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildCatalog, catalogSha256, nestingProblems, parseCatalog } from "../../src/conditions/catalog/index.ts";
import { formatJsonFile } from "../../src/core/index.ts";

const c100 = buildCatalog(100);
const c250 = buildCatalog(250);

const SHA_100 = "faa6cc8474167a944ffc5c020f11c2c7eca6e56f25972f49755405eec85d9c58";
const SHA_250 = "ca10b1758b35803934736f282bb2fdc0dec59259e2be8f0ee5857dc603e8f40a";

const BASE_ROUTES = [
  "papers.search", "papers.retrieve", "papers.summarize",
  "materials.search", "materials.retrieve", "materials.current", "materials.history", "materials.forecast",
  "inventory.list", "inventory.create", "inventory.update", "inventory.delete",
  "messaging.send", "messaging.share",
  "credits.create", "credits.cancel", "credits.refund",
  "runtime.restart", "runtime.execute",
  "exports.export",
];

const NOT_CANONICAL = "Not the canonical service for this data: a legacy mirror kept for old integrations.";

describe("the catalogs", () => {
  it("record their format, size and hash", () => {
    expect([c100.format, c100.endpoint_count, c100.endpoints.length, c100.sha256]).toEqual(["fabench-catalog/v1", 100, 100, SHA_100]);
    expect([c250.format, c250.endpoint_count, c250.endpoints.length, c250.sha256]).toEqual(["fabench-catalog/v1", 250, 250, SHA_250]);
  });

  it("start with the 20 base endpoints in 7 tools", () => {
    const base = c100.endpoints.slice(0, 20);
    expect(base.map((e) => e.route_id)).toEqual(BASE_ROUTES);
    expect([...new Set(base.map((e) => e.tool))]).toEqual(["papers", "materials", "inventory", "messaging", "credits", "runtime", "exports"]);
    expect(base.filter((e) => e.destructive).map((e) => e.route_id)).toEqual(["inventory.delete"]);
    expect(base.filter((e) => e.read_only).map((e) => e.route_id)).toEqual(["papers.search", "papers.retrieve", "papers.summarize", "materials.search", "materials.retrieve", "materials.current", "materials.history", "materials.forecast", "inventory.list"]);
    const current = c100.endpoints[5]!;
    expect(current.route_id).toBe("materials.current");
    expect(current.function_name).toBe("materials__current");
    expect(current.outputs.map((o) => [o.name, o.unit])).toEqual([["youngs_modulus", "GPa"], ["source_id", null]]);
  });

  it("fill up with distractors named by the preregistered rule", () => {
    // [position, route id, read-only, destructive, marked as not the canonical service]
    const expected: Array<[number, string, boolean, boolean, boolean]> = [
      [20, "aux_patent_000.search", true, false, false],
      [21, "aux_dataset_001.refund", false, false, false],
      [22, "aux_sample_002.merge", false, false, true],
      [23, "aux_experiment_003.update", false, false, false],
      [24, "aux_protocol_004.translate", true, false, false],
      [25, "aux_invoice_005.search", true, false, true],
      [26, "aux_shipment_006.send", false, false, false],
      [99, "aux_profile_079.create", false, false, false],
      [100, "aux_patent_080.export", true, false, true],
      [101, "aux_dataset_081.search", true, false, false],
      [149, "aux_image_129.export", true, false, false],
      [249, "aux_metric_229.delete", false, true, false],
    ];
    for (const [position, route, readOnly, destructive, notCanonical] of expected) {
      const e = c250.endpoints[position]!;
      expect([position, e.route_id, e.read_only, e.destructive, e.description.includes(NOT_CANONICAL)]).toEqual([position, route, readOnly, destructive, notCanonical]);
      if (position < 100) expect(c100.endpoints[position]!.route_id).toBe(route);
    }
    expect(c250.endpoints[22]!.description).toBe(`Merge two sample records into one. ${NOT_CANONICAL}`);
    expect(c250.endpoints[21]!.description).toBe("Issue a refund against a dataset.");
    expect(c250.endpoints[249]!.description).toBe("Delete a metric and everything attached to it. Destructive: cannot be undone.");
    expect(c250.endpoints[20]!.tool).toBe("aux_patent_000");
    expect(c250.endpoints[20]!.function_name).toBe("aux_patent_000__search");
  });

  it("count their tools, destructive, read-only and non-canonical endpoints", () => {
    const counts = (c: typeof c100) => ({
      tools: new Set(c.endpoints.map((e) => e.tool)).size,
      read_only: c.endpoints.filter((e) => e.read_only).length,
      // Every third distractor (the 3rd, 6th, …): 26 of 80, 76 of 230.
      not_canonical: c.endpoints.filter((e) => e.description.includes(NOT_CANONICAL)).length,
      destructive: c.endpoints.filter((e) => e.destructive).map((e) => e.route_id),
    });
    // 7 base tools and one tool per distractor.
    expect(counts(c100)).toEqual({ tools: 87, read_only: 44, not_canonical: 26, destructive: ["inventory.delete", "aux_purchase_013.delete", "aux_patent_040.delete", "aux_policy_067.delete"] });
    expect(counts(c250)).toEqual({
      tools: 237,
      read_only: 110,
      not_canonical: 76,
      destructive: ["inventory.delete", "aux_purchase_013.delete", "aux_patent_040.delete", "aux_policy_067.delete", "aux_device_094.delete", "aux_dataset_121.delete", "aux_contract_148.delete", "aux_sensor_175.delete", "aux_sample_202.delete", "aux_metric_229.delete"],
    });
  });

  it("nest: the 100 catalog is exactly the first 100 endpoints of the 250 catalog", () => {
    expect(c250.endpoints.slice(0, 100)).toEqual(c100.endpoints);
    expect(nestingProblems([{ size: 100, catalog: c100, file: "a" }, { size: 250, catalog: c250, file: "b" }])).toEqual([]);
    const shuffled = { ...c100, endpoints: [...c100.endpoints].reverse() };
    expect(nestingProblems([{ size: 100, catalog: shuffled, file: "a" }, { size: 250, catalog: c250, file: "b" }])[0]?.code).toBe("catalog_not_nested");
  });

  it("hash the sorted route ids, whatever order they are given in", () => {
    // Independently: sha256 of the compact JSON list of the (ASCII) route ids in sorted order.
    const sha = (ids: string[]) => createHash("sha256").update(JSON.stringify([...ids].sort())).digest("hex");
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
    expect(result.ok ? [] : result.problems.map((p) => p.code)).toEqual(["catalog_count_mismatch", "catalog_hash_mismatch"]);
  });
});
