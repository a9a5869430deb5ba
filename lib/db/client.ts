import "server-only";
import { createClient, type Client } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { embeddedFile, getConfig, type Config } from "../config";
import { withBookkeepingThread } from "./bookkeeping";
import { causeChain, innermostMessage, isDatabaseUnavailable } from "./database-unavailable";
import { openReplica } from "./replica-client";
import { withReplicationIndex } from "./replication-index";
import { withoutCredentials } from "../secrets/without-credentials";
import { withStatementCache } from "./statement-cache";
import * as schema from "./schema";
import { processWide } from "../process/process-state";
import { fetchWithin } from "../process/fetch-within";

export type Db = LibSQLDatabase<typeof schema>;
/** A transaction handle: the same query API as Db. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

type Handle = { client: Client; db: Db };

/** How long a request to a libSQL server may take unless the configuration says otherwise. */
const DEFAULT_TIMEOUT_MS = 1_500;

/**
 * A fetch that gives up after `ms`: a libSQL server that stops answering (a stalled primary, a dropped
 * route) becomes an error the API answers with 503, not a request that hangs past the hook's limit.
 */
export function fetchWithTimeout(ms: number): (request: Request) => Promise<Response> {
  return (request) => fetchWithin(request, {}, ms);
}

/** The local path of a file: URL. */
export function filePath(url: string): string {
  // Percent-decoded, as libSQL opens it (file:/data/my%20db.db is "my db.db").
  return decodeURIComponent(url.replace(/^file:(\/\/)?/, "").split("?")[0]!);
}

/**
 * A new database file is created empty (SQLite takes a zero-length file as an empty database) and
 * readable by its owner alone, like the secret beside it: it holds password hashes and everyone's
 * learnings. SQLite gives the -wal and -shm files the main file's mode. An existing file is left as it is.
 */
function createPrivateFile(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, "", { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
}

const BUSY_TIMEOUT_MS = 5000;

/**
 * Opens a libSQL client for a URL; a file database gets its folder created and a busy timeout.
 * `timeoutMs`: how long a request to a libSQL server may take; `busyTimeoutMs`: how long a file's
 * connections wait for another process's write lock.
 */
export function openDatabase(url: string, authToken?: string, timeoutMs = DEFAULT_TIMEOUT_MS, busyTimeoutMs = BUSY_TIMEOUT_MS): Handle {
  const local = url.startsWith("file:") || url === ":memory:";
  const file = url.startsWith("file:") && !url.includes(":memory:");
  if (file) createPrivateFile(path.resolve(filePath(url)));
  // timeout: the busy timeout of every pooled connection (the default, 0, fails at once when another
  // process holds the write lock). A server's reads see this process's writes, on a sqld replica too.
  const opened = local ? createClient({ url, timeout: busyTimeoutMs }) : createClient({ url, authToken, fetch: withReplicationIndex(fetchWithTimeout(timeoutMs)) });
  // Reads on a file run from prepared statements kept (lib/db/statement-cache.ts), bookkeeping is
  // written by a thread of its own (lib/db/bookkeeping.ts).
  const at = path.resolve(filePath(url));
  const client = file ? withStatementCache(withBookkeepingThread(opened, at, busyTimeoutMs), at, busyTimeoutMs) : opened;
  return { client, db: drizzle(client, { schema }) };
}

/** Opens what the configuration names: an embedded file, a libSQL server, or an embedded replica of one. */
export async function openConfiguredDatabase(config: Config): Promise<Handle> {
  if (!config.sync) return openDatabase(config.databaseUrl, config.databaseAuthToken, config.databaseTimeoutMs);
  const file = path.resolve(filePath(config.databaseUrl));
  mkdirSync(path.dirname(file), { recursive: true });
  const client = await openReplica({
    file,
    syncUrl: config.sync.url,
    authToken: config.databaseAuthToken,
    intervalSeconds: config.sync.intervalSeconds,
    timeoutMs: config.databaseTimeoutMs,
    fetch: fetchWithTimeout(config.databaseTimeoutMs),
  });
  return { client, db: drizzle(client, { schema }) };
}

/**
 * Migrations and operator commands wait for the write lock: when several instances start at once, the
 * first holds it while it migrates and the others' BEGIN waits, far longer than a request may; on a
 * file, a restore or a backup by another process holds it for as long as the copy takes. (Whether the
 * database answers at all is asked first, with the usual timeout: checkReachable.)
 */
const PRIMARY_TIMEOUT_MS = 120_000;

/** Where writes land: the file, the libSQL server, or an embedded replica's primary. */
function primaryUrl(config: Config): string {
  return config.sync?.url ?? config.databaseUrl;
}

/**
 * A handle of its own on where writes land (never an embedded replica's local file, which only its sync
 * may write). For migrations and `baton admin`: a file's connections, too, wait up to PRIMARY_TIMEOUT_MS
 * for the write lock (requests' connections wait BUSY_TIMEOUT_MS).
 */
export function openPrimary(config: Config): Handle {
  return openDatabase(primaryUrl(config), config.databaseAuthToken, PRIMARY_TIMEOUT_MS, PRIMARY_TIMEOUT_MS);
}

/** A database server that does not answer at all, worded for the one line a failed start prints. */
export class DatabaseUnreachable extends Error {}

/**
 * Asks a libSQL server where writes land for SELECT 1 within the usual request timeout, so that a start
 * against a server that is down or stalled ends at once, naming it (without credentials), rather than
 * after the migration's PRIMARY_TIMEOUT_MS. A file needs no asking.
 */
export async function checkReachable(config: Config): Promise<void> {
  const url = primaryUrl(config);
  if (url.startsWith("file:") || url === ":memory:") return;
  const { client } = openDatabase(url, config.databaseAuthToken, config.databaseTimeoutMs);
  try {
    await client.execute("SELECT 1");
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    const cause = timedOut(error) ? `no answer within ${config.databaseTimeoutMs} ms` : innermostMessage(error);
    throw new DatabaseUnreachable(`cannot reach the database at ${withoutCredentials(url)}: ${cause}`, { cause: error });
  } finally {
    client.close();
  }
}

const timedOut = (error: unknown) => causeChain(error).some((e) => e.name === "TimeoutError");


const held = processWide("database", (): { handle?: Handle } => ({}));

/** Opens the process's database; the server's startup awaits it before the first request. */
export async function connectDatabase(): Promise<void> {
  held.handle ??= await openConfiguredDatabase(getConfig());
}

function handle(): Handle {
  if (!held.handle) {
    const config = getConfig();
    // An embedded replica needs its first sync, which connectDatabase() awaits at startup.
    if (config.sync) throw new Error("the embedded replica is not open yet: the server's startup opens it");
    held.handle = openDatabase(config.databaseUrl, config.databaseAuthToken, config.databaseTimeoutMs);
  }
  return held.handle;
}

/** The process's one database handle. Only lib/db/queries and startup code use it. */
export function getDb(): Db {
  return handle().db;
}

export function getClient(): Client {
  return handle().client;
}

/**
 * Whether the database answers now: a query that reads the schema for a file or a libSQL server (so a
 * file overwritten with garbage does not answer, as `SELECT 1` would), a sync from the primary for an
 * embedded replica (its local reads always answer; its writes need the primary). An embedded file
 * deleted under the server does not answer either: SQLite would go on writing to the unlinked file,
 * and everything written would be gone at the next start.
 */
export async function databaseReachable(): Promise<boolean> {
  try {
    const config = getConfig();
    const client = getClient();
    if (config.sync) await client.sync();
    else await client.execute("SELECT count(*) FROM sqlite_schema");
    return config.database !== "embedded" || config.databaseUrl.includes(":memory:") || existsSync(embeddedFile(config.databaseUrl));
  } catch {
    return false;
  }
}
