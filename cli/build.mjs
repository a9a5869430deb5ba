// Bundles the CLI into cli/dist. Run by `npm install` (prepare) and `npm run build`.
//
// Two builds. cli/dist/baton.js + chunks/ is the CLI of this checkout (cli/bin/baton.mjs, the package bin
// here, `baton admin`).
// Code splitting gives every command its own chunk, loaded by dynamic import from the dispatcher:
// `baton hook session-start`, which runs before every agent session, loads node built-ins and its
// own few modules only, and `baton admin` alone loads the database layer. The metafile
// (cli/dist/meta.json) lets a test check that the hook's chunk imports nothing else.
//
// cli/dist/baton.mjs is the CLI the server hands out (GET /cli/baton.mjs, install.sh, the Claude Code
// plugin): one file with every dependency inside, so it runs on Node 20 with nothing installed. It
// has no `baton admin` (that opens the server's database; see cli/src/admin/admin-elsewhere.ts).
// Without splitting every command is in the file, but esbuild wraps each lazily imported module in
// an init function, so a hook still runs only its own code.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

let esbuild;
try {
  esbuild = await import("esbuild");
} catch {
  console.warn("baton: esbuild is not installed (npm install --omit=dev?); the CLI was not built.");
  process.exit(0);
}

const root = fileURLToPath(new URL("..", import.meta.url));
const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

/** The one-file CLI has no database layer: `baton admin` there says where to run it. */
const adminElsewhere = {
  name: "admin-elsewhere",
  setup(build) {
    build.onResolve({ filter: /^\.\/admin\/run-admin$/ }, () => ({ path: path.join(root, "cli/src/admin/admin-elsewhere.ts") }));
  },
};
// Baton's opencode plugin (cli/src/agents/opencode/plugin.ts): one self-contained ES module that opencode
// loads from ~/.config/opencode/plugins/. Served as it is at /cli/opencode-plugin.js, and carried inside
// both CLI builds (BATON_OPENCODE_PLUGIN), since `baton install opencode` writes it out with its settings.
const opencodePlugin = await esbuild.build({
  absWorkingDir: root,
  entryPoints: ["cli/src/agents/opencode/plugin.ts"],
  outfile: "cli/dist/opencode-plugin.js",
  bundle: true,
  format: "esm",
  platform: "node",
  target: "es2022",
  banner: { js: `// Baton opencode plugin ${version}: built from cli/src/agents/opencode/plugin.ts by cli/build.mjs.` },
  write: false,
  logLevel: "warning",
});
const opencodePluginText = opencodePlugin.outputFiles[0].text;
if (/^import .* from "(?!node:)/m.test(opencodePluginText)) throw new Error("cli/dist/opencode-plugin.js must import node built-ins only");
mkdirSync(new URL("dist/", import.meta.url), { recursive: true });
writeFileSync(new URL("dist/opencode-plugin.js", import.meta.url), opencodePluginText);
// The build's own name: a hash of the one-file CLI, made with this placeholder where the name goes
// and then written in its place (cli/src/version.ts). Any change to what the CLI does changes it, so
// a CLI and a server built from different code never take each other for the same version, while
// package.json's version stays as it is between releases.
const BUILD_PLACEHOLDER = "baton-build-0000000000";
const define = { BATON_OPENCODE_PLUGIN: JSON.stringify(opencodePluginText), BATON_CLI_BUILD: JSON.stringify(BUILD_PLACEHOLDER) };

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
  define,
  metafile: true,
  write: false,
  logLevel: "warning",
});
writeFileSync(new URL("dist/meta.json", import.meta.url), JSON.stringify(result.metafile));

const standalone = await esbuild.build({
  absWorkingDir: root,
  entryPoints: ["cli/src/baton.ts"],
  outfile: "cli/dist/baton.mjs",
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  banner: { js: `#!/usr/bin/env node\n// Baton CLI ${version}+${BUILD_PLACEHOLDER}: built from cli/src by cli/build.mjs.` },
  plugins: [adminElsewhere],
  define,
  alias: { "server-only": "./cli/src/empty-module.ts" },
  metafile: true,
  write: false,
  logLevel: "warning",
});
const build = createHash("sha256").update(standalone.outputFiles[0].text).digest("hex").slice(0, 10);
const cliVersion = `${version}+${build}`;
for (const file of [...result.outputFiles, ...standalone.outputFiles]) {
  mkdirSync(path.dirname(file.path), { recursive: true });
  writeFileSync(file.path, file.text.replaceAll(BUILD_PLACEHOLDER, build));
}
// The server names this version (lib/baton-version.ts): in the Baton-Version header and /api/health.
writeFileSync(new URL("dist/version.json", import.meta.url), JSON.stringify({ version: cliVersion }) + "\n");
const outside = Object.values(standalone.metafile.outputs)
  .flatMap((output) => output.imports)
  .filter((i) => i.external && !i.path.startsWith("node:"));
if (outside.length) throw new Error(`cli/dist/baton.mjs must be self-contained, but imports ${outside.map((i) => i.path).join(", ")}`);

// Chunks of earlier builds (their names carry a content hash) would pile up: remove what this build did not write.
const { readdirSync, rmSync } = await import("node:fs");
const written = new Set(Object.keys(result.metafile.outputs).map((file) => file.replace(/^cli\/dist\//, "")));
for (const name of readdirSync(new URL("dist/chunks/", import.meta.url))) {
  if (!written.has(`chunks/${name}`)) rmSync(new URL(`dist/chunks/${name}`, import.meta.url));
}
