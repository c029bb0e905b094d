import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ACTIONS, buildCatalog, catalogSha256, nestingProblems, parseCatalog, RESOURCES } from "../../src/conditions/catalog/index.ts";
import { canonicalSha256, compareCodePoints, formatJsonFile } from "../../src/core/index.ts";

const c100 = buildCatalog(100);
const c250 = buildCatalog(250);

describe("the catalogs", () => {
  it("start with the 20 base endpoints in 7 tools", () => {
    const base = c100.endpoints.slice(0, 20);
    expect(new Set(base.map((e) => e.tool))).toEqual(new Set(["papers", "materials", "inventory", "messaging", "credits", "runtime", "exports"]));
    expect(base.map((e) => e.route_id)).toContain("materials.forecast");
    expect(base.filter((e) => e.destructive).map((e) => e.route_id)).toEqual(["inventory.delete"]);
    const current = base.find((e) => e.route_id === "materials.current");
    expect(current?.outputs.find((o) => o.name === "youngs_modulus")?.unit).toBe("GPa");
    expect(current?.function_name).toBe("materials__current");
  });

  it("fill up with distractors named by the preregistered formula", () => {
    const distractors = c250.endpoints.slice(20);
    expect(distractors).toHaveLength(230);
    distractors.forEach((e, i) => {
      const resource = RESOURCES[i % 40];
      const action = ACTIONS[(7 * i + Math.floor(i / 3)) % 18];
      expect(e.route_id).toBe(`aux_${resource}_${String(i).padStart(3, "0")}.${action}`);
      expect(e.destructive).toBe(action === "delete");
      expect(e.read_only).toBe(["search", "retrieve", "list", "export", "translate", "summarize", "compare", "forecast"].includes(action ?? ""));
      expect(e.description.includes("Not the canonical service")).toBe(i % 3 === 2);
    });
  });

  it("nest: the 100 catalog is exactly the first 100 endpoints of the 250 catalog", () => {
    expect(canonicalSha256(c250.endpoints.slice(0, 100))).toBe(canonicalSha256(c100.endpoints));
    expect(nestingProblems([{ size: 100, catalog: c100, file: "a" }, { size: 250, catalog: c250, file: "b" }])).toEqual([]);
    const shuffled = { ...c100, endpoints: [...c100.endpoints].reverse() };
    expect(nestingProblems([{ size: 100, catalog: shuffled, file: "a" }, { size: 250, catalog: c250, file: "b" }])[0]?.code).toBe("catalog_not_nested");
  });

  it("hash the sorted route ids", () => {
    const ids = c100.endpoints.map((e) => e.route_id).sort(compareCodePoints);
    expect(c100.sha256).toBe(canonicalSha256(ids));
    expect(catalogSha256([...ids].reverse())).toBe(c100.sha256);
  });

  it("are byte-identical to the checked-in files", () => {
    expect(readFileSync("tasks/catalogs/100.json", "utf8")).toBe(formatJsonFile(c100));
    expect(readFileSync("tasks/catalogs/250.json", "utf8")).toBe(formatJsonFile(c250));
  });

  it("refuse a catalog whose recorded hash or count does not match its endpoints", () => {
    const tampered = { ...c100, endpoints: c100.endpoints.slice(0, 99) };
    const result = parseCatalog(tampered, "100.json");
    expect(result.ok ? [] : result.problems.map((p) => p.code)).toEqual(["catalog_count_mismatch", "catalog_hash_mismatch"]);
  });
});
