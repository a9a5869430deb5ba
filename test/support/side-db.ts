import { createClient, type Client } from "@libsql/client";

/** How long a test's own connection waits for a running server's write lock (the server's own wait, lib/db/client.ts). */
const BUSY_TIMEOUT_MS = 5000;

/**
 * A test's own client on a database a running server also writes. The server writes its bookkeeping
 * about once a second, so a file's connection waits for the lock as the server's connections do
 * rather than fail with SQLITE_BUSY; a server URL needs no wait.
 */
export function sideClient(url: string): Client {
  return url.startsWith("file:") ? createClient({ url, timeout: BUSY_TIMEOUT_MS }) : createClient({ url });
}
