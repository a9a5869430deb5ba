import { loadConfig } from "../config/load-config";
import { updateUserConfig } from "../config/user-config-file";
import { EXIT } from "../exit-codes";
import { apiClient, errorMessage, Unreachable } from "../http/api-client";
import type { Trust } from "../http/server-fetch";
import { parseOptions } from "../output/parse-options";
import { note, printResult } from "../output/print";

/** Revoking is one small request; a server that does not answer in this time is taken as unreachable. */
const REVOKE_TIMEOUT_MS = 10_000;

/**
 * What became of the token on the server: revoked now, refused (the server does not know it: revoked
 * already, or from elsewhere), or still valid as far as anyone can tell, with why and the exit code.
 */
type OnServer = { state: "revoked" } | { state: "refused"; why: string } | { state: "kept"; why: string; exit: number };

async function revoke(url: string | null, token: string, trust: Trust): Promise<OnServer> {
  if (!url) return { state: "kept", why: "no server is configured", exit: EXIT.usage };
  try {
    // Only the CA of `trust` (the whole config): its timeoutMs is the hooks' limit, not this one.
    const res = await apiClient({ url, token, caFile: trust.caFile, timeoutMs: REVOKE_TIMEOUT_MS })("DELETE", "/api/me/token");
    if (res.status >= 200 && res.status < 300) return { state: "revoked" };
    if (res.status === 401) return { state: "refused", why: `${url} does not take it any more (revoked already)` };
    return { state: "kept", why: `${url} answered ${res.status}: ${errorMessage(res)}`, exit: EXIT.failure };
  } catch (error) {
    if (error instanceof Unreachable) return { state: "kept", why: error.message.replace(/\.$/, ""), exit: EXIT.unreachable };
    throw error;
  }
}

function serverLine(onServer: OnServer, url: string | null): string {
  if (onServer.state === "revoked") return `Revoked the token on ${url}.`;
  if (onServer.state === "refused") return `Nothing to revoke: ${onServer.why}.`;
  const where = url ? `${url}/settings/tokens` : "the dashboard's Settings → API tokens";
  return `The token could not be revoked (${onServer.why}): it stays valid until you revoke it at ${where}.`;
}

/**
 * `baton logout`: revokes the token on the server, then removes it from the config file (the URL
 * stays, for the next `baton login`). With the server out of reach the token is still removed here,
 * and the command says it could not be revoked, and exits 5.
 */
export async function runLogout(args: string[]): Promise<number> {
  parseOptions(args, {});
  const config = loadConfig();
  for (const warning of config.warnings) note(warning);
  if (!config.token) {
    printResult({ signedIn: false }, "Not signed in: no token in BATON_TOKEN or the config file.");
    return EXIT.ok;
  }
  const onServer = await revoke(config.url, config.token, config);
  const fromFile = config.tokenFrom === "file";
  if (fromFile) updateUserConfig({ token: undefined }, config.userConfigFile);
  const lines = [serverLine(onServer, config.url), fromFile ? `Removed it from ${config.userConfigFile}.` : "It comes from BATON_TOKEN in your environment: unset it there."];
  if (onServer.state !== "kept") {
    printResult({ revoked: onServer.state === "revoked", removedFrom: fromFile ? config.userConfigFile : null }, lines.join("\n"));
    return EXIT.ok;
  }
  // A failure, said like one (stderr and the exit code), with what was done all the same.
  note(lines.join("\n"));
  return onServer.exit;
}
