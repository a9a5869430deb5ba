// Bundles the CLI into cli/dist. Run by `npm install` (prepare) and `npm run build`.
// Code splitting gives every command its own chunk, loaded by dynamic import from the dispatcher:
// `baton hook session-start`, which runs before every agent session, loads node built-ins and its
// own few modules only, and `baton admin` alone loads the database layer. The metafile
// (cli/dist/meta.json) lets a test check that the hook's chunk imports nothing else.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

let esbuild;
try {
  esbuild = await import("esbuild");
} catch {
  console.warn("baton: esbuild is not installed (npm install --omit=dev?); the CLI was not built.");
  process.exit(0);
}

const root = fileURLToPath(new URL("..", import.meta.url));
const result = await esbuild.build({
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
  metafile: true,
  logLevel: "warning",
});
writeFileSync(new URL("dist/meta.json", import.meta.url), JSON.stringify(result.metafile));

// Chunks of earlier builds (their names carry a content hash) would pile up: remove what this build did not write.
const { readdirSync, rmSync } = await import("node:fs");
const written = new Set(Object.keys(result.metafile.outputs).map((file) => file.replace(/^cli\/dist\//, "")));
for (const name of readdirSync(new URL("dist/chunks/", import.meta.url))) {
  if (!written.has(`chunks/${name}`)) rmSync(new URL(`dist/chunks/${name}`, import.meta.url));
}
