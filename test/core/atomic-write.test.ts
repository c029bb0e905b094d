import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { formatJsonFile, writeFileAtomic, writeJsonAtomic } from "../../src/core/index.ts";
import { join, useTempDir } from "../helpers/temp.ts";

describe("atomic writes", () => {
  const temp = useTempDir();

  it("creates parent folders and leaves no temporary file behind", () => {
    const path = join(temp(), "a", "b", "out.json");
    writeJsonAtomic(path, { b: 1, a: "é" });
    expect(readFileSync(path, "utf8")).toBe('{\n  "b": 1,\n  "a": "é"\n}\n');
    expect(readdirSync(join(temp(), "a", "b"))).toEqual(["out.json"]);
  });

  it("replaces an existing file whole", () => {
    const path = join(temp(), "x.txt");
    writeFileSync(path, "old contents that are longer");
    writeFileAtomic(path, "new");
    expect(readFileSync(path, "utf8")).toBe("new");
  });

  it("removes its temporary file when the final rename fails", () => {
    const folder = temp();
    const target = join(folder, "taken");
    mkdirSync(target);
    writeFileSync(join(target, "inside.txt"), "keep");
    // Renaming a file over a non-empty folder fails after the temporary file was written.
    expect(() => writeFileAtomic(target, "new")).toThrow();
    expect(readdirSync(folder)).toEqual(["taken"]);
    expect(readFileSync(join(target, "inside.txt"), "utf8")).toBe("keep");
  });

  it("formats JSON with two spaces and a trailing newline", () => {
    expect(formatJsonFile([1])).toBe("[\n  1\n]\n");
  });
});
