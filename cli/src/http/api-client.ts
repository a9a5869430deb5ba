import { CliError, EXIT } from "../exit-codes";
import { isCertificateProblem, isUntrustedCa, serverFetch, trustHint, type Trust } from "./server-fetch";
import { checkServerVersion, VERSION_HEADER } from "./version-check";

// Used by the hooks too: fetch and nothing else.

/** An HTTP answer; `server` is the URL asked (the configured one), for messages. */
export type ApiResponse = { status: number; text: string; json: unknown; server: string; contentType: string };

export type ApiCall = (method: string, path: string, body?: unknown, options?: { timeoutMs?: number }) => Promise<ApiResponse>;

/**
 * Why a request got no answer from Baton: "not reachable", "timed out", a certificate not trusted (its CA)
 * or refused (expired, another host's), a redirect to Baton elsewhere, or an answer that is not Baton's
 * (an SSO page, a captive portal, a wrong path), with the detail for messages.
 */
export class Unreachable extends CliError {
  constructor(
    readonly url: string,
    readonly reason: "refused" | "timeout" | "untrusted" | "certificate" | "redirect" | "not-baton",
    detail: string,
  ) {
    const message = {
      timeout: `the server at ${url} did not answer within ${detail}.`,
      refused: `the server is not reachable at ${url} (${detail}).`,
      untrusted: `the certificate of ${url} is not trusted (${detail}).`,
      certificate: `the certificate of ${url} was refused (${detail}).`,
      redirect: `the server at ${url} redirects to ${detail}: use ${detail} (baton login --url ${detail}).`,
      "not-baton": `${url} did not answer as a Baton server (${detail}): check the server's address (baton login --url <address>).`,
    }[reason];
    super(message, EXIT.unreachable);
  }
}

const causeOf = (error: unknown) => (error as { cause?: { code?: string; message?: string } }).cause;

export function networkDetail(error: unknown): string {
  const cause = causeOf(error);
  if (!cause?.code) return cause?.message ?? (error as Error).message ?? String(error);
  // A certificate's verdict says why in its message ("certificate has expired", which names it does not match).
  if (isCertificateProblem(cause.code) && !isUntrustedCa(cause.code)) return `${cause.code}: ${cause.message ?? ""}`.replace(/: $/, "");
  return cause.code + trustHint(cause.code);
}

/** A request that got no answer: refused (or unresolvable), or a certificate not trusted or refused. */
function notAnswered(url: string, error: unknown): Unreachable {
  const code = causeOf(error)?.code;
  const reason = isUntrustedCa(code) ? "untrusted" : isCertificateProblem(code) ? "certificate" : "refused";
  // A server that speaks only HTTPS closes a plain-HTTP request unanswered: the likeliest slip of all.
  const tls = reason === "refused" && /^http:/i.test(url) && (code === "UND_ERR_SOCKET" || code === "ECONNRESET") ? `; if it speaks HTTPS, use ${url.replace(/^http:/i, "https:")}` : "";
  return new Unreachable(url, reason, networkDetail(error) + tls);
}

/**
 * A 3xx answer (fetch does not follow: a redirect to another origin would drop the token, or carry it
 * there, and a 301 turns a POST into a GET). To the same API path elsewhere (http → https, a new host):
 * Baton at another address, named. Anywhere else (a sign-in page): not Baton's API.
 */
function redirected(server: string, path: string, res: Response): Unreachable {
  const location = res.headers.get("location");
  let target: URL | null = null;
  try {
    target = location ? new URL(location, server + path) : null;
  } catch {
    target = null;
  }
  const moved = target?.href.endsWith(path) ? target.href.slice(0, -path.length).replace(/\/+$/, "") : null;
  if (moved && /^https?:\/\//.test(moved)) return new Unreachable(server, "redirect", moved);
  return new Unreachable(server, "not-baton", `it redirects ${path.split("?")[0]} to ${target?.href ?? "nowhere"} (HTTP ${res.status})`);
}

type ClientConfig = { url: string; token: string | null; timeoutMs: number } & Trust;

/** The request, with redirects not followed (redirected, above); no answer at all throws Unreachable. */
async function send(config: ClientConfig, method: string, path: string, body: unknown, timeoutMs: number): Promise<Response> {
  try {
    return await serverFetch(config.url + path, {
      method,
      headers: {
        accept: "application/json",
        ...(config.token ? { authorization: `Bearer ${config.token}` } : {}),
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "manual",
    }, config);
  } catch (error) {
    const name = (error as Error)?.name;
    if (name === "TimeoutError" || name === "AbortError") throw new Unreachable(config.url, "timeout", `${timeoutMs} ms`);
    throw notAnswered(config.url, error);
  }
}

/** A client of the Baton API: Bearer token, JSON bodies, a time limit per request, the user's CA for https. */
export function apiClient(config: ClientConfig): ApiCall {
  return async (method, path, body, options = {}) => {
    const timeoutMs = Math.max(1, Math.round(options.timeoutMs ?? config.timeoutMs));
    const res = await send(config, method, path, body, timeoutMs);
    checkServerVersion(res.headers.get(VERSION_HEADER), config.url, config);
    if (res.status >= 300 && res.status < 400 && res.status !== 304) {
      await res.body?.cancel().catch(() => undefined);
      throw redirected(config.url, path, res);
    }
    let text: string;
    try {
      text = await res.text();
    } catch (error) {
      if ((error as Error)?.name === "TimeoutError") throw new Unreachable(config.url, "timeout", `${timeoutMs} ms`);
      throw notAnswered(config.url, error);
    }
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, text, json, server: config.url, contentType: res.headers.get("content-type") ?? "" };
  };
}

/** What a refused token (401) is told, here and by the MCP bridge. */
export const SIGN_IN_AGAIN = "Sign in again with `baton login` (or check BATON_TOKEN, or token in ~/.config/baton/config.json).";

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Whether an answer is Baton's success: 2xx with a JSON object saying ok:true (every API route's shape; the hook formats' own aside). */
export const isBatonAnswer = (res: ApiResponse): boolean => res.status >= 200 && res.status < 300 && isObject(res.json) && res.json.ok === true;

/** Why an answer is not Baton's, for messages: its status and what it was instead. */
export const notBatonDetail = (res: ApiResponse): string => `it answered ${res.status} with ${res.contentType.split(";")[0] || "no content type"}, not Baton's JSON`;

/** The server's own message from `{ ok: false, error: { code, message } }`; null for a body that is not Baton's (never quoted: an agent would read it). */
export function serverMessage(res: ApiResponse): string | null {
  const error = isObject(res.json) && isObject(res.json.error) ? res.json.error : null;
  return error && typeof error.message === "string" ? error.message : null;
}

/**
 * What an answer means for a request a hook can send again later (its deliveries and the spool):
 * - "sent": Baton's success;
 * - "not-baton": not Baton's answer (a 2xx that is not its JSON, a gateway's or an SSO proxy's 4xx page):
 *   nothing was delivered, and the next request would fare the same;
 * - "refused": Baton's own 4xx for this request (400, 403 for a project or scope the token lacks, 404,
 *   409, 413, 422…), which a resend cannot change;
 * - "retry": what a resend may change: the server's trouble (5xx), a timeout or rate limit (408, 429),
 *   and a token refused outright (401: every request is refused alike until `baton login`).
 */
export type AnswerKind = "sent" | "not-baton" | "refused" | "retry";

export function answerKind(res: ApiResponse): AnswerKind {
  if (isBatonAnswer(res)) return "sent";
  const clientError = res.status >= 400 && res.status < 500;
  if ((res.status >= 200 && res.status < 300) || (clientError && serverMessage(res) === null)) return "not-baton";
  return clientError && ![401, 408, 429].includes(res.status) ? "refused" : "retry";
}

/** The server's own message, or the status alone. */
export const errorMessage = (res: ApiResponse): string => serverMessage(res) ?? `the server answered ${res.status}`;

/** The start of a body that is not Baton's, for hook.log alone. */
export const rawStart = (res: ApiResponse): string => (serverMessage(res) === null && res.text ? ` (body: ${res.text.slice(0, 200)})` : "");

const exitOfStatus = (status: number): number =>
  status === 401 || status === 403
    ? EXIT.unauthorized
    : status === 404
      ? EXIT.notFound
      : status === 409
        ? EXIT.conflict
        : status === 400
          ? EXIT.usage
          : EXIT.failure;

const GATEWAY_FAILURES = new Set([502, 503, 504]);

/**
 * The body of Baton's 2xx answer; a 2xx that is not Baton's JSON (an SSO page, a captive portal, a wrong
 * path) is Unreachable "not-baton", a gateway's 502/503/504 page Unreachable too (exit 5); anything else a
 * CliError with the server's message and a typed exit code.
 */
export function expectOk<T = Record<string, unknown>>(res: ApiResponse, what: string): T {
  const failed = failureOf(res, what);
  if (failed) throw failed;
  return res.json as T;
}

/** expectOk's reading of an answer: null for Baton's 2xx, else the error a command ends with (Unreachable or ApiFailure). */
export function failureOf(res: ApiResponse, what: string): Unreachable | ApiFailure | null {
  if (isBatonAnswer(res)) return null;
  if (res.status >= 200 && res.status < 300) return new Unreachable(res.server, "not-baton", notBatonDetail(res));
  // A proxy's own 502/503/504 page (Baton's 503 is its JSON): the proxy could not reach Baton behind it.
  if (GATEWAY_FAILURES.has(res.status) && serverMessage(res) === null) return new Unreachable(res.server, "refused", `a gateway answered ${res.status} for it`);
  const hint = res.status === 401 ? ` ${SIGN_IN_AGAIN}` : "";
  return new ApiFailure(res.status, `${what}: ${errorMessage(res)}${hint}`, exitOfStatus(res.status));
}

export class ApiFailure extends CliError {
  constructor(
    readonly status: number,
    message: string,
    exitCode: number,
  ) {
    super(message, exitCode);
  }
}
