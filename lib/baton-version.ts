import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { version } from "../package.json";

/**
 * The version of the CLI built in `dir` (cli/dist of the checkout at `root`, unless said): package.json's
 * and the build's hash, "0.1.0+3f2a9c1e0b", from its version.json (cli/build.mjs); package.json's alone
 * where no CLI is built.
 */
export function batonVersion(root = process.cwd(), dir = path.join(root, "cli", "dist")): string {
  try {
    const built = JSON.parse(readFileSync(path.join(dir, "version.json"), "utf8")) as { version?: unknown };
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

/** The copy of cli/dist a server takes when it first starts after its build (lib/distribution/cli-bundle.ts keepServedCli). */
export const servedCliCopy = (root = process.cwd()) => path.join(root, process.env.NEXT_DIST_DIR || ".next", "baton-cli");

/** Where the CLI this server hands out is read from: its copy, else cli/dist (`next dev`, before the copy is taken). */
export function servedCliDir(root = process.cwd()): string {
  const copy = servedCliCopy(root);
  return existsSync(path.join(copy, "baton.mjs")) ? copy : path.join(root, "cli", "dist");
}

/**
 * Said at start when the CLI this server hands out is of another version than the one it names (the CLI
 * rebuilt between the server's build and its first start): every CLI and the plugin would take their
 * copy for out of date. Null when they agree.
 */
export function servedCliMismatch(root = process.cwd()): string | null {
  const dir = servedCliDir(root);
  const served = batonVersion(root, dir);
  return served === BATON_VERSION ? null : `the CLI it hands out (${path.relative(root, dir)}) is ${served}, this server was built with ${BATON_VERSION}: run \`npm run build\` and start the server again`;
}
