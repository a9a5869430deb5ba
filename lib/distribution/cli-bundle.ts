import "server-only";
import { readCheckoutFile, servedFile, type ServedFile } from "./served-file";

/** Where cli/build.mjs writes the one-file CLI (part of `npm run build`). */
export const CLI_BUNDLE_PATH = "cli/dist/baton.mjs";

/** The CLI as the server hands it out: one file, Node ≥ 20, built from this checkout (same version). */
export function cliBundle(): ServedFile {
  return servedFile(readCheckoutFile(CLI_BUNDLE_PATH, "The CLI is not built on this server: run `npm run build` (or `npm run build:cli`) in its checkout."));
}
