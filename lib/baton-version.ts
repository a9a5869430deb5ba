import { readFileSync } from "node:fs";
import path from "node:path";
import { version } from "../package.json";

/**
 * The version of the CLI built in `root`: package.json's and the build's hash, "0.1.0+3f2a9c1e0b", from
 * cli/dist/version.json (cli/build.mjs); package.json's alone where no CLI is built.
 */
export function batonVersion(root = process.cwd()): string {
  try {
    const built = JSON.parse(readFileSync(path.join(root, "cli", "dist", "version.json"), "utf8")) as { version?: unknown };
    if (typeof built.version === "string" && built.version.startsWith(`${version}+`)) return built.version;
  } catch {
    // not built: package.json's version
  }
  return version;
}

/**
 * The version this server runs, as the CLI it hands out names itself (cli/src/version.ts): the CLI's at
 * the server's build, which next.config.ts reads (`npm run build` builds the CLI first), puts in every
 * API answer's Baton-Version header and inlines here, so /api/health and MCP name the same. Read from
 * cli/dist where the server runs unbuilt (next dev, tests importing lib/).
 */
export const BATON_VERSION: string = process.env.BATON_BUILD_VERSION || batonVersion();

/**
 * The CLI this server hands out (cli/dist, read as it is served) when it was built after the server was:
 * its version is not the one the server names, so every CLI and the plugin would take their copy for
 * out of date, and the plugin fetch it again at every run. Null when they agree.
 */
export function servedCliMismatch(root = process.cwd()): string | null {
  const served = batonVersion(root);
  return served === BATON_VERSION ? null : `the CLI in cli/dist is ${served}, this server was built with ${BATON_VERSION}: run \`npm run build\` and start the server again`;
}
