import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import type { ErrorReason } from "../../../lib/api/error-codes";
import { isUnencryptedUrl } from "../../../lib/auth/connection-security";
import { loadConfig, normaliseUrl } from "../config/load-config";
import { checkUserConfig, updateUserConfig } from "../config/user-config-file";
import { CliError, EXIT } from "../exit-codes";
import { apiClient, expectOk, Unreachable, type ApiCall, type ApiResponse } from "../http/api-client";
import { parseOptions } from "../output/parse-options";
import { note, printResult } from "../output/print";
import { openBrowser } from "./open-browser";

/** What POST /api/cli/login answers (lib/auth/cli-login.ts). */
type Started = { userCode: string; deviceCode: string; verificationUrl: string; verificationUrlComplete: string; expiresIn: number; interval: number };
/** What the poll answers once the code is approved. */
type Collected = { token: string; user: { name: string; email: string }; tokenInfo: { name: string; scope: string; projects: string[] } };

const isText = (v: unknown): v is string => typeof v === "string" && v.length > 0;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether the start's answer has every field the sign-in uses (expectOk checked it is Baton's). */
const isStarted = (v: Record<string, unknown>): boolean =>
  isText(v.userCode) && isText(v.deviceCode) && isText(v.verificationUrlComplete) && typeof v.expiresIn === "number" && typeof v.interval === "number";

/** Whether the approval's answer holds a token, and whom and what it is for: nothing is written otherwise. */
const isCollected = (v: Record<string, unknown>): boolean =>
  isText(v.token) && isRecord(v.user) && isText(v.user.email) && isRecord(v.tokenInfo) && isText(v.tokenInfo.name) && Array.isArray(v.tokenInfo.projects);

/** `answer` when `fits`, else the Unreachable "not-baton" a server that is not Baton gets. */
function checked<T>(res: ApiResponse, what: string, fits: (v: Record<string, unknown>) => boolean): T {
  const answer = expectOk<Record<string, unknown>>(res, what);
  if (!fits(answer)) throw new Unreachable(res.server, "not-baton", `${what}: its answer lacks the fields of Baton's`);
  return answer as T;
}

/** One request may wait this long; the whole wait is the code's lifetime. */
const REQUEST_TIMEOUT_MS = 15_000;
/** RFC 8628 §3.5: a client told to slow down adds five seconds to its interval, for good. */
const SLOW_DOWN_STEP_MS = 5_000;

const reasonOf = (res: ApiResponse): ErrorReason | undefined => (res.json as { error?: { reason?: ErrorReason } } | undefined)?.error?.reason;

/** Asks until the code is approved, denied or expired; the token once approved. */
async function waitForApproval(call: ApiCall, started: Started): Promise<Collected> {
  let interval = started.interval * 1000;
  const deadline = Date.now() + started.expiresIn * 1000;
  let saidUnreachable = false;
  for (;;) {
    await sleep(interval);
    if (Date.now() > deadline) throw new CliError("the code expired before it was approved: run `baton login` again.", EXIT.failure);
    let res: ApiResponse;
    try {
      res = await call("POST", "/api/cli/login/poll", { deviceCode: started.deviceCode });
    } catch (error) {
      // A laptop changing networks while its owner finds the browser: keep asking until the code expires.
      if (!(error instanceof Unreachable) || (error.reason !== "refused" && error.reason !== "timeout")) throw error;
      if (!saidUnreachable) note(`${error.message} Still trying until the code expires.`);
      saidUnreachable = true;
      continue;
    }
    if (res.status === 428) continue;
    // The server or its database briefly away (a restart, a proxy without upstream): it says try again.
    if (res.status === 502 || res.status === 503 || res.status === 504) {
      if (!saidUnreachable) note(`the server answered ${res.status} (not available for now). Still trying until the code expires.`);
      saidUnreachable = true;
      continue;
    }
    const reason = reasonOf(res);
    if (reason === "slow_down") {
      interval += SLOW_DOWN_STEP_MS;
      continue;
    }
    if (reason === "denied") throw new CliError("the sign-in was denied in the browser; no token was made.", EXIT.unauthorized);
    if (reason === "expired") throw new CliError("the code expired before it was approved: run `baton login` again.", EXIT.failure);
    return checked<Collected>(res, "cannot sign in", isCollected);
  }
}

function signedInText(url: string, got: Collected, file: string): string {
  const projects = got.tokenInfo.projects.length ? `only ${got.tokenInfo.projects.join(", ")}` : "all your projects";
  return [
    `Signed in to ${url} as ${got.user.name} <${got.user.email}>.`,
    `Token "${got.tokenInfo.name}" (${got.tokenInfo.scope}, ${projects}) saved in ${file}.`,
  ].join("\n");
}

/**
 * Said when the approved token could not be written (checked before, yet the file changed meanwhile): the
 * token itself, once, and where it goes. Lost, it would stay valid on the server with nobody holding it.
 */
function unsavedText(got: Collected, keys: Record<string, string>, file: string, error: Error): string {
  const others = Object.entries(keys).filter(([key]) => key !== "token").map(([key, value]) => `"${key}": ${JSON.stringify(value)}`);
  return [
    `signed in to ${keys.url} as ${got.user.email}, but the token could not be saved in ${file} (${error.message}).`,
    `Keep the token, shown this once, in that file as "token" beside ${others.join(", ")} (the file readable by you alone), or set it as BATON_TOKEN with BATON_URL=${keys.url}: ${got.token}`,
  ].join(" ");
}

/**
 * `baton login [--url URL] [--no-browser]`: device authorisation. Prints a URL with a short code (and
 * opens it when this machine has a browser), waits while the person approves it in the dashboard,
 * then keeps the token it receives, with the URL, in the user's config file (mode 0600, other keys kept).
 */
export async function runLogin(args: string[]): Promise<number> {
  const { values } = parseOptions(args, { url: { type: "string" }, "no-browser": { type: "boolean" } });
  const config = loadConfig();
  for (const warning of config.warnings) note(warning);
  const given = values.url === undefined ? null : normaliseUrl(values.url.trim(), "--url", []);
  if (values.url !== undefined && !given) throw new CliError(`--url must be the server's http:// or https:// address, not "${values.url}".`, EXIT.usage);
  const url = given ?? config.url;
  if (!url) throw new CliError("which server? Run `baton login --url https://baton.example.com` (the address of your team's Baton).", EXIT.usage);
  if (isUnencryptedUrl(url)) note(`${url} is plain HTTP: the token this sign-in makes, and every request the hooks send with it, cross the network unencrypted. Use the server's https:// address where it has one.`);

  // A token made for a file that cannot take it would be left valid and unknown: refuse before asking.
  checkUserConfig(config.userConfigFile);
  const call = apiClient({ url, token: null, caFile: config.caFile, timeoutMs: REQUEST_TIMEOUT_MS });
  const started = checked<Started>(await call("POST", "/api/cli/login", { machine: hostname() }), `cannot start signing in at ${url}`, isStarted);
  const opened = !values["no-browser"] && openBrowser(started.verificationUrlComplete);
  note(
    [
      `to sign in, open this address in a browser where you use Baton, and approve the code ${started.userCode}:`,
      `  ${started.verificationUrlComplete}`,
      `${opened ? "(opening it in your browser) " : ""}Waiting for approval; the code expires in ${Math.round(started.expiresIn / 60)} min.`,
    ].join("\n"),
  );

  const got = await waitForApproval(call, started);
  // A CA this sign-in trusted (BATON_CA_FILE) is one the hooks need too, and Claude Code does not run them
  // in this shell: kept beside the token, as install.sh keeps it.
  const caFile = url.startsWith("https:") && config.caFile ? config.caFile : undefined;
  const keys = { url, token: got.token, ...(caFile ? { caFile } : {}) };
  let file: string;
  try {
    file = updateUserConfig(keys, config.userConfigFile);
  } catch (error) {
    throw new CliError(unsavedText(got, keys, config.userConfigFile ?? "the config file", error as Error), EXIT.failure);
  }
  if (config.tokenFrom === "env") note("BATON_TOKEN is set in this shell and is used before the config file: unset it to use the new token.");
  printResult({ url, user: got.user, token: got.tokenInfo, configFile: file }, signedInText(url, got, file));
  return EXIT.ok;
}
