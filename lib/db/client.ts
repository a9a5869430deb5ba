import "server-only";
import { createClient, type Client } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { getConfig } from "../config";
import * as schema from "./schema";

export type Db = LibSQLDatabase<typeof schema>;
/** A transaction handle: the same query API as Db. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

type Handle = { client: Client; db: Db };

/** Opens a libSQL client for a URL; a file database gets its folder created and a busy timeout. */
export function openDatabase(url: string, authToken?: string): Handle {
  if (url.startsWith("file:") && !url.includes(":memory:")) {
    const file = url.replace(/^file:(\/\/)?/, "").split("?")[0]!;
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  }
  // timeout: the busy timeout of every pooled connection (the default, 0, fails at once when another
  // process holds the write lock).
  const client = createClient({ url, authToken, timeout: 5000 });
  return { client, db: drizzle(client, { schema }) };
}

// Kept on globalThis so dev-mode module reloads reuse one client instead of leaking pools.
const holder = globalThis as unknown as { __batonDb?: Handle };

function handle(): Handle {
  if (!holder.__batonDb) {
    const config = getConfig();
    holder.__batonDb = openDatabase(config.databaseUrl, config.databaseAuthToken);
  }
  return holder.__batonDb;
}

/** The process's one database handle. Only lib/db/queries and startup code use it. */
export function getDb(): Db {
  return handle().db;
}

export function getClient(): Client {
  return handle().client;
}
