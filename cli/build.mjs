// Bundles the CLI into cli/dist. Run by `npm install` (prepare) and `npm run build`.
// Code splitting keeps `baton admin` (which loads the database layer) in its own chunk, so the hooks
// that run at every agent session start load only what they use.
import { fileURLToPath } from "node:url";

let esbuild;
try {
  esbuild = await import("esbuild");
} catch {
  console.warn("baton: esbuild is not installed (npm install --omit=dev?); the CLI was not built.");
  process.exit(0);
}

const root = fileURLToPath(new URL("..", import.meta.url));
await esbuild.build({
  absWorkingDir: root,
  entryPoints: { baton: "cli/src/baton.ts" },
  outdir: "cli/dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  // server-only guards React Server Components from client bundles; in a CLI it has nothing to guard.
  alias: { "server-only": "./cli/src/empty-module.ts" },
  chunkNames: "chunks/[name]-[hash]",
  logLevel: "warning",
});
