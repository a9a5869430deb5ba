// The CLI this server hands out is the one it was built with: `npm run build` copies cli/dist's
// one-file CLI, opencode plugin and version into the server's build (<distDir>/baton-cli/), where
// lib/distribution/cli-bundle.ts serves them from. A CLI rebuilt later in the checkout (`npm install`
// runs build:cli) would otherwise be handed out under the version the server's answers name
// (lib/baton-version.ts), and every CLI and the plugin would take it for out of date.
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const target = path.join(root, process.env.NEXT_DIST_DIR || ".next", "baton-cli");
mkdirSync(target, { recursive: true });
for (const name of ["baton.mjs", "opencode-plugin.js", "version.json"]) {
  const from = path.join(root, "cli", "dist", name);
  if (!existsSync(from)) throw new Error(`${from} is missing: npm run build builds the CLI first (npm run build:cli)`);
  copyFileSync(from, path.join(target, name));
}
