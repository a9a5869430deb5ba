import type { Client } from "@libsql/client";
import type { Db } from "./client";

/** The libSQL client a database handle runs on: drizzle keeps the one it was given as $client. */
export function clientOf(db: Db): Client & { readsLocally?: boolean } {
  return (db as unknown as { $client: Client & { readsLocally?: boolean } }).$client;
}
