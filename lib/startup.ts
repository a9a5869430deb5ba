import path from "node:path";
import { guardHttpServer } from "./api/guard-http-server";
import { servedCliMismatch } from "./baton-version";
import { keepServedCli } from "./distribution/cli-bundle";
import { issueSetupCode } from "./auth/setup-code";
import { ConfigError, formatConfigError, getConfig } from "./config";
import type { TlsMaterial } from "./tls-files";
import { checkReachable, connectDatabase, databaseReachable, DatabaseUnreachable, getClient, getDb, openPrimary } from "./db/client";
import { setReachabilityProbe } from "./db/outage";
import { onShutdown } from "./process/on-shutdown";
import { countUsers } from "./db/queries/users";
import { createEmbedder } from "./embeddings/embedder";
import { startEmbeddingWorker } from "./embeddings/embedding-worker";
import { awaitSchema, migrate } from "./db/migrate";
import { loadSearchIndex, MAX_INDEXED } from "./context/search/index-sync";
import { LINE_HEAD_CAPACITY, warmLineHeads } from "./context/pack/learning-line";
import { installGracefulShutdown } from "./process/graceful-shutdown";
import { loggable, withoutSecrets } from "./process/loggable-error";

/** What this start did to the schema: "none pending" on every start but the first after an update. */
function migrationsLine(applied: number, total: number): string {
  return applied ? `migrations: ${applied} applied now (${total} in all)` : `migrations: none pending (${total} in all)`;
}

/**
 * Set by scripts/https-server.mjs (plain JavaScript, hence a registered symbol) before Next.js starts:
 * it listens once startup hands it the checked certificate, so a wrong file or a database that cannot
 * be prepared stops the start before the first connection, as under `next start`.
 */
const HTTPS_SERVER = Symbol.for("baton.httpsServer");
type ServeHttps = (tls: TlsMaterial) => void;

/**
 * Where to hand the certificate. One given to `next start` (plain HTTP only) would be ignored without
 * a word, and the team would send passwords in clear text believing otherwise: refused.
 */
function httpsServer(tls: TlsMaterial | null): (() => void) | null {
  const serve = (globalThis as Record<symbol, ServeHttps | undefined>)[HTTPS_SERVER];
  if (tls && !serve) {
    throw new ConfigError("BATON_TLS_CERT", "is set, but this server was started by `next start`, which serves plain HTTP: start it with `npm start` (scripts/https-server.mjs)");
  }
  return tls && serve ? () => serve(tls) : null;
}

/**
 * Runs once per server process, before any request: checks the configuration, brings the database
 * schema up to date (either failing stops the process with one clear line), and makes a SIGTERM write
 * the buffered bookkeeping before the process exits.
 */
export async function startup(): Promise<void> {
  guardHttpServer();
  let database: string;
  let serveHttps: (() => void) | null;
  try {
    database = getConfig().database;
    serveHttps = httpsServer(getConfig().tls);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(formatConfigError(error));
      process.exit(1);
    }
    throw error;
  }
  try {
    await checkReachable(getConfig());
    const migrations = openPrimary(getConfig()).client;
    const result = await migrate(migrations, path.join(process.cwd(), "drizzle")).finally(() => migrations.close());
    // After migrating: an embedded replica's first sync then brings the schema with it.
    await connectDatabase();
    setReachabilityProbe(databaseReachable);
    await awaitSchema(getClient(), result.latest);
    console.log(`baton: ${database} database ready, ${migrationsLine(result.applied.length, result.total)}`);
    keepServedCli();
    const mismatch = servedCliMismatch();
    if (mismatch) console.error(`baton: ${mismatch}`);
    installGracefulShutdown();
    if ((await countUsers(getDb())) === 0) {
      console.log(`baton: first-run setup: open /setup on this machine, or from another with the setup code ${issueSetupCode()}`);
    }
    // The learnings' search index (lib/context/search) is loaded now, not in the first session start.
    // Should it fail, contexts search with SQLite's full-text index while it loads again in the background.
    const index = await loadSearchIndex(getDb()).catch((error: unknown) => {
      console.error(`baton: the learnings' search index did not load (${withoutSecrets(error instanceof Error ? error.message : String(error))}): contexts search with SQLite until it does`);
      return undefined;
    });
    if (index === null) console.log(`baton: more than ${MAX_INDEXED} learnings: contexts search them with SQLite's full-text index`);
    // The tokenizer's tables take ~0.2 s to load: pay it now, not in the first agent's session start.
    const { countTokens } = await import("gpt-tokenizer/encoding/o200k_base");
    countTokens("warm up");
    // The learnings' lines are made and counted now, between the first requests, not in the first
    // contexts that list them.
    if (index) warmLineHeads(index.newest(LINE_HEAD_CAPACITY).reverse()).catch((error: unknown) => console.error("baton: counting the learnings' lines at start failed:", loggable(error)));
    const embeddings = getConfig().embeddings;
    if (embeddings) {
      const worker = startEmbeddingWorker(getDb(), createEmbedder(embeddings));
      // No new round once the server is stopping: it would hold the exit up behind the embedder.
      onShutdown("embedding worker", async () => worker.stop());
      console.log(`baton: embedding learnings with ${embeddings.model} at ${new URL(embeddings.url).origin}`);
    }
    serveHttps?.();
  } catch (error) {
    if (error instanceof DatabaseUnreachable) console.error(`baton: ${error.message}`); // without credentials already
    else console.error(`baton: cannot prepare the database: ${withoutSecrets(error instanceof Error ? error.message : String(error))}`);
    process.exit(1);
  }
}
