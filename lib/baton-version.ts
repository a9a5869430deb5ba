import { readFileSync } from "node:fs";
import path from "node:path";
import { version } from "../package.json";

/**
 * The version this server runs, as the CLI it hands out names itself (cli/src/version.ts): package.json's
 * and the build's hash, "0.1.0+3f2a9c1e0b", from cli/dist/version.json, which `npm run build` writes
 * before the server is built (next.config.ts puts it in every API answer's Baton-Version header). Without
 * a built CLI, package.json's alone. Read once, when the server starts.
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

export const BATON_VERSION = batonVersion();
