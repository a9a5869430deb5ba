import "server-only";
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { servedCliCopy, servedCliDir } from "../baton-version";
import { readCheckoutFile, servedFile, type ServedFile } from "./served-file";

/** The CLI as the server hands it out: one file, Node ≥ 20, the one this server was built with (same version). */
export function cliBundle(): ServedFile {
  const file = path.join(servedCliDir(), "baton.mjs");
  return servedFile(readCheckoutFile(file, "The CLI is not built on this server: run `npm run build` (or `npm run build:cli`) in its checkout."));
}

/** Baton's opencode plugin as cli/build.mjs built it beside the CLI (same version); `baton install opencode` writes it with its settings. */
export function opencodePlugin(): ServedFile {
  const file = path.join(servedCliDir(), "opencode-plugin.js");
  return servedFile(readCheckoutFile(file, "The opencode plugin is not built on this server: run `npm run build` (or `npm run build:cli`) in its checkout."));
}

const SERVED = ["baton.mjs", "opencode-plugin.js", "version.json"];

/**
 * Keeps the CLI this server hands out as cli/dist held it when the server first started after its build
 * (a build empties .next, copy and all): a CLI rebuilt in the checkout later (`npm install` runs
 * build:cli) is not handed out under the version the server names (lib/baton-version.ts), which every
 * CLI and the plugin would take for out of date. Taken whole or not at all (two servers may start at
 * once); without a built CLI, or where .next cannot be written, cli/dist is served as it is.
 */
export function keepServedCli(root = process.cwd()): void {
  const copy = servedCliCopy(root);
  const from = path.join(root, "cli", "dist");
  if (existsSync(path.join(copy, "baton.mjs")) || !existsSync(path.join(from, "baton.mjs"))) return;
  const taking = `${copy}.${process.pid}`;
  try {
    mkdirSync(taking, { recursive: true });
    for (const name of SERVED) if (existsSync(path.join(from, name))) copyFileSync(path.join(from, name), path.join(taking, name));
    renameSync(taking, copy);
  } catch {
    // another server took it first, or .next is read-only: cli/dist is served
  } finally {
    rmSync(taking, { recursive: true, force: true });
  }
}
