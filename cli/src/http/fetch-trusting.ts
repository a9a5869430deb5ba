import { readFileSync } from "node:fs";
import { request } from "node:https";
import { Readable } from "node:stream";
import { rootCertificates } from "node:tls";

// Loaded only for an https server with a caFile (server-fetch.ts): the hooks pay for node:https then alone.

let cached: { caFile: string; ca: string[] } | null = null;

/**
 * Node's roots, NODE_EXTRA_CA_CERTS (an explicit `ca` replaces both, so both are put back) and the
 * user's CA file, read once a process. An unreadable caFile fails the request with its path: a
 * message that says why, where a TLS error would only say "self-signed certificate".
 */
function trustedCas(caFile: string): string[] {
  if (cached?.caFile === caFile) return cached.ca;
  const extra = process.env.NODE_EXTRA_CA_CERTS ? readOrNull(process.env.NODE_EXTRA_CA_CERTS) : null;
  const own = readOrNull(caFile);
  if (own === null) throw new TypeError("fetch failed", { cause: { message: `caFile ${caFile} cannot be read` } });
  cached = { caFile, ca: [...rootCertificates, ...(extra ? [extra] : []), own] };
  return cached.ca;
}

function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

/** The fetch subset the CLI uses (method, headers as a record, a string body, signal), over node:https. */
export function fetchTrusting(url: string, init: RequestInit, caFile: string): Promise<Response> {
  const ca = trustedCas(caFile);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: init.method ?? "GET", headers: init.headers as Record<string, string> | undefined, ca, signal: init.signal ?? undefined },
      (res) => {
        const headers = new Headers();
        for (let i = 0; i < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
        const empty = res.statusCode === 204 || res.statusCode === 304 || init.method === "HEAD";
        const body = empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
        if (empty) res.resume();
        resolve(new Response(body, { status: res.statusCode, statusText: res.statusMessage, headers }));
      },
    );
    // As fetch does: the cause says what failed (a TLS verdict's code), an abort keeps its name.
    req.on("error", (error) => reject(error.name === "AbortError" ? error : new TypeError("fetch failed", { cause: error })));
    req.end(typeof init.body === "string" ? init.body : undefined);
  });
}
