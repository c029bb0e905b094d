export const contradictionCount = {
    id: "contradiction_count",
    version: 1,
    description: "emitted facts whose key and value match a forbidden fact (with the key's tolerance and unit conversion; source ignored)",
    compute: (t) => t.emitted.filter((f) => f.contradicts).length,
};
