import type { Client } from "@libsql/client";
import type { Db } from "./client";

/**
 * Whether reads are answered from a file on this machine (an embedded database or an embedded
 * replica) rather than by a libSQL server: locally each statement costs CPU and a round trip costs
 * nothing; on a server, the other way round. The context's reads choose by it.
 */
export function readsLocally(db: Db): boolean {
  // drizzle keeps the client it was given as $client.
  const client = (db as unknown as { $client?: Client & { readsLocally?: boolean } }).$client;
  return client?.protocol === "file" || client?.readsLocally === true;
}
