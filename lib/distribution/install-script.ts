import "server-only";
import path from "node:path";
import { ApiError } from "../api/errors";
import { readCheckoutFile, servedFile, type ServedFile } from "./served-file";

/** Where the installer's source says the server's address; the server fills it in. */
const URL_PLACEHOLDER = "@BATON_URL@";

// Scheme, host (a name, IPv4 or bracketed IPv6) and port, and an optional path of plain characters:
// the address goes into a shell script, so anything else is refused rather than escaped.
const SAFE_ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?$|^https?:\/\/\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;
const SAFE_PATH = /^(?:\/[A-Za-z0-9._~-]+)*$/;

/** `origin` if it is an address the script may carry, else a 400. */
export function installableOrigin(origin: string): string {
  const trimmed = origin.replace(/\/+$/, "");
  const pathStart = trimmed.indexOf("/", trimmed.indexOf("//") + 2);
  const [base, rest] = pathStart < 0 ? [trimmed, ""] : [trimmed.slice(0, pathStart), trimmed.slice(pathStart)];
  if (!SAFE_ORIGIN.test(base) || !SAFE_PATH.test(rest)) {
    throw new ApiError("bad_request", "This server's address (the Host header, or BATON_BASE_URL) is not a plain http(s) URL; cannot write an installer for it.");
  }
  return trimmed;
}

/** install.sh with this server's address in it, in single quotes (installableOrigin allows no quote). */
export function installScript(origin: string): ServedFile {
  const template = readCheckoutFile(path.join(process.cwd(), "cli", "install.sh"), "install.sh is missing from this server's checkout (cli/install.sh).");
  return servedFile(template.replaceAll(URL_PLACEHOLDER, `'${installableOrigin(origin)}'`));
}
