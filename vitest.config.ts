import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // server-only throws outside React Server Components; tests import server modules directly.
      "server-only": path.resolve(import.meta.dirname, "cli/src/empty-module.ts"),
    },
  },
  test: {
    include: ["test/**/*.test.ts"],
    // Integration tests start a real server (next start) per file; allow for it.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
