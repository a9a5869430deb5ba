/**
 * Whether a thrown value means the database could not be reached (as opposed to a query it refused):
 * a libSQL server that is down, restarting, stalled past the request timeout, a replica that cannot
 * reach its primary, or an embedded file that cannot be used (FILE_UNUSABLE). The API answers these with 503 and Retry-After; the client recovers by itself
 * when the server is back, since every request opens its own HTTP exchange.
 */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CLOSED",
]);

/**
 * @libsql/client codes for a connection that went away mid-stream. Its SERVER_ERROR also covers a 401
 * (a wrong DATABASE_AUTH_TOKEN is no outage), so only its 5xx statuses count, by the message below.
 */
const LIBSQL_UNAVAILABLE_CODES = new Set(["HRANA_WEBSOCKET_ERROR", "HRANA_CLOSED_ERROR", "STREAM_EXPIRED"]);

/**
 * An embedded file another process holds locked past the busy timeout (a backup, a long write of an
 * admin command): nothing is wrong with the request, and the same request a moment later is answered.
 */
const BUSY = /^SQLITE_BUSY/;

/**
 * An embedded file the server cannot use as a database any more: made read-only, on a full disk, moved
 * or deleted, unreadable, or overwritten. Nothing is wrong with the request; the operator has to act,
 * and until then no request can be answered (503, not a 500 per request that looks like a bug).
 */
const FILE_UNUSABLE = /^SQLITE_(?:READONLY|IOERR|FULL|CANTOPEN|CORRUPT|NOTADB)/;

// "replicat…" and "primary": a sqld replica that cannot reach its primary, in its own words. A 404 and
// "no such table": a database with no schema where the server migrated one at its start, as a sqld
// replica answers while it bootstraps again from a restarted primary (seen in test/integration/
// shape-faults.test.ts), or a file replaced by an empty one; the request is fine, the database is not there yet.
const UNAVAILABLE_MESSAGES =
  /fetch failed|sync error|error trying to connect|connection refused|did not sync from the primary|primary is unavailable|server returned HTTP status (?:5\d\d|404)|replicat(?:or|ion) error|primary (?:connection|unreachable|not available)|no such table/i;

/** What an error and the errors it wraps may say about themselves. */
export type ErrorFacts = { name?: unknown; code?: unknown; message?: unknown };

/**
 * `error` and the causes it wraps, outermost first: a driver's "fetch failed" around the socket's
 * ECONNREFUSED. At most six (a cycle ends there too), and only objects (a thrown string ends the chain).
 */
export function causeChain(error: unknown): ErrorFacts[] {
  const chain: ErrorFacts[] = [];
  for (let e = error; e && typeof e === "object" && chain.length < 6; e = (e as { cause?: unknown }).cause) chain.push(e as ErrorFacts);
  return chain;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  return causeChain(error).some(({ name, code, message }) => {
    if (name === "TimeoutError" || name === "AbortError") return true;
    if (typeof code === "string" && (NETWORK_CODES.has(code) || LIBSQL_UNAVAILABLE_CODES.has(code) || BUSY.test(code) || FILE_UNUSABLE.test(code))) return true;
    return typeof message === "string" && UNAVAILABLE_MESSAGES.test(message);
  });
}

/**
 * What went wrong, in the words nearest the cause: "connect ECONNREFUSED 127.0.0.1:8080" rather than
 * the "fetch failed" wrapped around it.
 */
export function innermostMessage(error: unknown): string {
  const inner = causeChain(error)
    .map((e) => e.message)
    .filter((m): m is string => typeof m === "string" && m !== "")
    .at(-1);
  return inner ?? (error instanceof Error ? error.message : String(error));
}
