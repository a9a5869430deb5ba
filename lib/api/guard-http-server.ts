import { Server, type IncomingMessage, type ServerResponse } from "node:http";
import { Server as HttpsServer } from "node:https";
import type { Duplex } from "node:stream";
import { stampConnection } from "../auth/connection-security";
import { NO_CONTENT_POLICY, securityHeaders, STRICT_TRANSPORT_SECURITY } from "../security-headers";
import { checkApiRequest, methodNotAllowed } from "./check-api-request";

/** What Next.js would have sent with these answers too (next.config.ts): they never reach it. */
const SECURITY_HEADERS = securityHeaders(NO_CONTENT_POLICY);

/**
 * Methods the Fetch API will not build a Request for. Next.js turns every request into one before the
 * proxy or any route runs, so these failed with a bare 500 there; they are answered here instead, as
 * the 405 they are.
 */
const UNFETCHABLE_METHODS = new Set(["TRACE", "TRACK"]);
/** What a dashboard page answers: reads, and server actions posted by its forms. */
const PAGE_METHODS = "GET, HEAD, POST";

const guarded = Symbol.for("baton.guardHttpServer");

/**
 * Answers, in the JSON error shape, what never reaches Next.js or reaches it only to fail: a method the
 * Fetch API refuses (405 with Allow), a request Node's HTTP parser cannot read (an unknown method, a
 * Content-Length that lies, malformed headers: 400; Node would send a bare one), and on /api a path
 * or query that is not valid percent-encoding (400; Next.js: a bare 500 for the path), that no route serves (404) or a
 * method its route does not export (405 with Allow; Next.js: an empty 405). Checking the API here, not
 * in the proxy, keeps Next.js's middleware off the hot path of every hook request. Installed once per
 * process, on every HTTP and HTTPS server (Baton's own TLS, scripts/https-server.mjs: node's https.Server
 * does not inherit from http.Server), before the first request. It also writes what the socket says into
 * every request's headers (stampConnection), which nothing after it can learn otherwise, and puts HSTS
 * on every answer sent over Baton's own TLS.
 */
export function guardHttpServer(): void {
  guard(Server.prototype);
  guard(HttpsServer.prototype as unknown as Server);
}

function guard(proto: Server & { [guarded]?: true }): void {
  if (proto[guarded]) return;
  proto[guarded] = true;
  const emit = proto.emit;
  proto.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === "request") {
      const [req, res] = args as [IncomingMessage, ServerResponse];
      stampConnection(req);
      if ((req.socket as { encrypted?: boolean }).encrypted) servedOverTls(req, res);
      const method = req.method ?? "GET";
      // An API path answers for itself (no route exports TRACE or TRACK); a page takes GET and POST.
      const refused =
        checkApiRequest(method, normalisedPath(req.url ?? "/"), rawQuery(req.url ?? "")) ?? (UNFETCHABLE_METHODS.has(method) ? methodNotAllowed(method, PAGE_METHODS) : null);
      if (refused) {
        void send(req, res, refused);
        return true;
      }
    }
    if (event === "clientError") {
      answerUnparsable(args[0] as NodeJS.ErrnoException, args[1] as Duplex);
      return true;
    }
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof emit;
}

/**
 * Baton terminates TLS itself, so nobody stands in front of it: an X-Forwarded-Proto can only be the
 * client's own, and saying "http" must not make its session cookie lose Secure (lib/auth/auth.ts).
 */
function servedOverTls(req: IncomingMessage, res: ServerResponse): void {
  req.headers["x-forwarded-proto"] = "https";
  for (const [name, value] of Object.entries(STRICT_TRANSPORT_SECURITY)) res.setHeader(name, value);
}

/** What follows the path's "?", as sent (no fragment reaches a server). */
const rawQuery = (url: string): string => {
  const at = url.indexOf("?");
  return at < 0 ? "" : url.slice(at + 1);
};

/** The path as Next.js routes it: `.` and `..` segments (also percent-encoded) resolved, as URL does. */
function normalisedPath(url: string): string {
  try {
    return new URL(`http://localhost${url.startsWith("/") ? "" : "/"}${url}`).pathname;
  } catch {
    return url.split("?")[0]!;
  }
}

async function send(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, { ...SECURITY_HEADERS, ...Object.fromEntries(response.headers) });
  res.end(await response.text());
  req.resume();
}

function answerUnparsable(error: NodeJS.ErrnoException, socket: Duplex): void {
  // A client that went away, or a socket already answered: nothing to say.
  if (error.code === "ECONNRESET" || !socket.writable || (socket as Duplex & { _httpMessage?: unknown })._httpMessage) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({ ok: false, error: { code: "bad_request", message: `The request could not be read as HTTP (${error.code ?? "malformed"}).` } });
  const security = Object.entries(SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}\r\n`).join("");
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${security}Connection: close\r\n\r\n${body}`,
  );
}
