import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The CLI tests spawn the real binary a few times; give them room on a shared machine.
    testTimeout: 30_000,
  },
});
