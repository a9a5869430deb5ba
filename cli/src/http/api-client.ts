import { CliError, EXIT } from "../exit-codes";
import { isUntrustedCa, serverFetch, trustHint, type Trust } from "./server-fetch";
import { checkServerVersion, VERSION_HEADER } from "./version-check";

// Used by the hooks too: fetch and nothing else.

export type ApiResponse = { status: number; text: string; json: unknown };

export type ApiCall = (method: string, path: string, body?: unknown, options?: { timeoutMs?: number }) => Promise<ApiResponse>;

/** Why a request got no HTTP answer: "not reachable", "timed out" or a certificate not trusted, with the detail for messages. */
export class Unreachable extends CliError {
  constructor(
    readonly url: string,
    readonly reason: "refused" | "timeout" | "untrusted",
    detail: string,
  ) {
    const message = {
      timeout: `the server at ${url} did not answer within ${detail}.`,
      refused: `the server is not reachable at ${url} (${detail}).`,
      untrusted: `the certificate of ${url} is not trusted (${detail}).`,
    }[reason];
    super(message, EXIT.unreachable);
  }
}

const causeOf = (error: unknown) => (error as { cause?: { code?: string; message?: string } }).cause;

export function networkDetail(error: unknown): string {
  const cause = causeOf(error);
  return cause?.code ? cause.code + trustHint(cause.code) : (cause?.message ?? (error as Error).message ?? String(error));
}

/** A request that got no answer: refused (or unresolvable, or a certificate not trusted). */
const notAnswered = (url: string, error: unknown) =>
  new Unreachable(url, isUntrustedCa(causeOf(error)?.code) ? "untrusted" : "refused", networkDetail(error));

/** A client of the Baton API: Bearer token, JSON bodies, a time limit per request, the user's CA for https. */
export function apiClient(config: { url: string; token: string | null; timeoutMs: number } & Trust): ApiCall {
  return async (method, path, body, options = {}) => {
    const timeoutMs = Math.max(1, Math.round(options.timeoutMs ?? config.timeoutMs));
    let res: Response;
    try {
      res = await serverFetch(config.url + path, {
        method,
        headers: {
          accept: "application/json",
          ...(config.token ? { authorization: `Bearer ${config.token}` } : {}),
          ...(body !== undefined ? { "content-type": "application/json" } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      }, config);
    } catch (error) {
      const name = (error as Error)?.name;
      if (name === "TimeoutError" || name === "AbortError") throw new Unreachable(config.url, "timeout", `${timeoutMs} ms`);
      throw notAnswered(config.url, error);
    }
    checkServerVersion(res.headers.get(VERSION_HEADER), config.url, config);
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
    return { status: res.status, text, json };
  };
}

/** What a refused token (401) is told, here and by the MCP bridge. */
export const SIGN_IN_AGAIN = "Sign in again with `baton login` (or check BATON_TOKEN, or token in ~/.config/baton/config.json).";

/** The server's own message from `{ ok: false, error: { code, message } }`, or the status. */
export function errorMessage(res: ApiResponse): string {
  const error = (res.json as { error?: { message?: unknown } } | undefined)?.error;
  if (error && typeof error.message === "string") return error.message;
  return `the server answered ${res.status}${res.text ? `: ${res.text.slice(0, 200)}` : ""}`;
}

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

/** The body of a 2xx answer; anything else becomes a CliError with the server's message and a typed exit code. */
export function expectOk<T = Record<string, unknown>>(res: ApiResponse, what: string): T {
  if (res.status >= 200 && res.status < 300) return (res.json ?? {}) as T;
  const hint = res.status === 401 ? ` ${SIGN_IN_AGAIN}` : "";
  throw new ApiFailure(res.status, `${what}: ${errorMessage(res)}${hint}`, exitOfStatus(res.status));
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
