import "server-only";
import path from "node:path";
import { servedCliDir } from "../baton-version";
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
