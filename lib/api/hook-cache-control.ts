/**
 * The Cache-Control of an answer a hook waits for at every session start and prompt (GET /api/context
 * and /api/context/prompt): `directives` and `no-transform`, which keeps Next.js's compression (and a
 * proxy's) off it. Node's fetch, the CLI's, asks for gzip with every request; gzipping a context of a
 * few KB cost each hook 1.4–1.9 ms of the server's time (`bench/hook-compression.ts`, one connection,
 * with and without the fetch's accept-encoding) to save bytes that travel in a connection's first flight anyway.
 * Everything else is compressed as before.
 */
export function hookCacheControl(directives: string): string {
  return `${directives}, no-transform`;
}
