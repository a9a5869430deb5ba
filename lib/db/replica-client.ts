import "server-only";
import { createClient, type Client, type InArgs, type InStatement, type ResultSet, type Transaction, type TransactionMode } from "@libsql/client";
import { Worker } from "node:worker_threads";
import { inBookkeeping } from "../process/write-behind";

/**
 * An embedded replica (libSQL's edge shape): reads from a local file kept in sync with a primary,
 * writes to the primary.
 *
 * libSQL's own sync is a synchronous native call: on a primary that stops answering (a stalled
 * machine, a dropped route) `client.sync()` held the event loop for as long as the stall lasted,
 * and so would a write forwarded by the replica. So the syncing handle lives in a worker thread,
 * the server reads the same file through a plain local connection, and writes go to the primary
 * over HTTP with a timeout. Nothing on the request path can block on the network.
 *
 * A writer reads its own writes: after this instance writes, the next read waits (asynchronously,
 * at most `timeoutMs`) for a sync that began after the write, unless the last sync failed (then the
 * primary is away and reads answer as the file is until a sync succeeds again). Other instances see
 * the write within one sync interval.
 */
export type ReplicaOptions = {
  file: string;
  syncUrl: string;
  authToken?: string;
  intervalSeconds: number;
  timeoutMs: number;
  fetch: (request: Request) => Promise<Response>;
};

type SyncReply = { id: number; ok: boolean; message?: string };

// Runs in the worker: one libSQL handle with syncUrl, synced every interval and on request.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require("libsql");
const { file, syncUrl, authToken, intervalMs } = workerData;
let db;
function sync() {
  db ??= new Database(file, { syncUrl, authToken });
  db.sync();
}
let timer;
function schedule() { clearTimeout(timer); timer = setTimeout(tick, intervalMs); }
function tick() { try { sync(); } catch {} schedule(); }
parentPort.on("message", (id) => {
  try { sync(); parentPort.postMessage({ id, ok: true }); }
  catch (error) { parentPort.postMessage({ id, ok: false, message: String(error && error.message || error) }); }
  schedule();
});
`;

class SyncWorker {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly waiting = new Map<number, (reply: SyncReply) => void>();

  constructor(options: ReplicaOptions) {
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file: options.file, syncUrl: options.syncUrl, authToken: options.authToken, intervalMs: options.intervalSeconds * 1000 },
    });
    this.worker.unref();
    this.worker.on("message", (reply: SyncReply) => {
      this.waiting.get(reply.id)?.(reply);
      this.waiting.delete(reply.id);
    });
  }

  /** Asks for a sync now; resolves when it is done, rejects when it failed or took longer than `ms`. */
  sync(ms: number): Promise<void> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`the replica did not sync from the primary within ${ms} ms`));
      }, ms);
      this.waiting.set(id, (reply) => {
        clearTimeout(timer);
        if (reply.ok) resolve();
        else reject(new Error(`sync error: ${reply.message}`));
      });
      this.worker.postMessage(id);
    });
  }

  close() {
    void this.worker.terminate();
  }
}

const READ = /^\s*select\b/i;
const sqlOf = (stmt: InStatement | [string, InArgs?]) => (typeof stmt === "string" ? stmt : Array.isArray(stmt) ? stmt[0] : stmt.sql);

/** Opens an embedded replica: syncs once (the primary must be reachable at start), then serves. */
export async function openReplica(options: ReplicaOptions): Promise<Client> {
  const worker = new SyncWorker(options);
  await worker.sync(Math.max(options.timeoutMs, 30_000)).catch((error: Error) => {
    worker.close();
    throw new Error(`cannot sync the replica ${options.file} from ${options.syncUrl}: ${error.message}`);
  });
  const reader = createClient({ url: `file:${options.file}`, timeout: 5000 });
  const writer = createClient({ url: options.syncUrl, authToken: options.authToken, fetch: options.fetch });
  return new ReplicaClient(reader, writer, worker, options.timeoutMs);
}

class ReplicaClient implements Client {
  /** Reads go to the local file (lib/db/reads-locally.ts). */
  readonly readsLocally = true;
  /** Bumped by every write this instance makes; `synced` is the value the last finished sync covers. */
  private writes = 0;
  private synced = 0;
  private pending: Promise<boolean> | null = null;
  /**
   * Set when a sync failed or was late, cleared by the next one that succeeds. Meanwhile reads answer
   * from the local file at once and a sync is retried in the background: a stalled primary holds the
   * worker's synchronous sync, so waiting on every read would cost each read, and each of a context's
   * read batches, the full timeout (two batches: 3 s for a 1.5 s timeout).
   */
  private unreachable = false;

  constructor(
    private readonly reader: Client,
    private readonly writer: Client,
    private readonly worker: SyncWorker,
    private readonly timeoutMs: number,
  ) {}

  get closed() {
    return this.reader.closed || this.writer.closed;
  }

  /** As the primary is reached: migrations and transactions go there. */
  get protocol() {
    return this.writer.protocol;
  }

  execute(stmt: InStatement): Promise<ResultSet>;
  execute(sql: string, args?: InArgs): Promise<ResultSet>;
  async execute(stmt: InStatement, args?: InArgs): Promise<ResultSet> {
    const sql = typeof stmt === "string" ? stmt : stmt.sql;
    if (READ.test(sql)) return (await this.local()).execute(stmt as string, args);
    return this.wrote(this.writer.execute(stmt as string, args));
  }

  async batch(stmts: Array<InStatement | [string, InArgs?]>, mode?: TransactionMode): Promise<ResultSet[]> {
    if (stmts.every((s) => READ.test(sqlOf(s)))) return (await this.local()).batch(stmts, mode);
    return this.wrote(this.writer.batch(stmts, mode));
  }

  migrate(stmts: InStatement[]): Promise<ResultSet[]> {
    return this.wrote(this.writer.migrate(stmts));
  }

  executeMultiple(sql: string): Promise<void> {
    return this.wrote(this.writer.executeMultiple(sql));
  }

  async transaction(mode?: TransactionMode): Promise<Transaction> {
    const tx = await this.writer.transaction(mode);
    const commit = tx.commit.bind(tx);
    tx.commit = () => this.wrote(commit());
    return tx;
  }

  async sync() {
    await this.worker.sync(this.timeoutMs);
    return undefined;
  }

  close() {
    this.worker.close();
    this.reader.close();
    this.writer.close();
  }

  reconnect() {
    this.reader.reconnect();
    this.writer.reconnect();
  }

  private async wrote<T>(work: Promise<T>): Promise<T> {
    try {
      const result = await work;
      // The primary answered: the next read waits for a sync again, so it reads this write back.
      this.unreachable = false;
      return result;
    } finally {
      // Even a failed write may have reached the primary.
      if (!inBookkeeping()) this.writes++;
    }
  }

  /**
   * The local file, once it has what this instance wrote. A sync that fails or is late means the
   * primary is out of reach, where a write could not happen either: the local file then answers as it
   * is, so reads stay up while the primary is away.
   */
  private async local(): Promise<Client> {
    if (this.unreachable) {
      if (this.synced < this.writes) void this.syncOnce();
      return this.reader;
    }
    while (this.synced < this.writes) {
      if (!(await this.syncOnce())) break;
    }
    return this.reader;
  }

  private syncOnce(): Promise<boolean> {
    this.pending ??= (async () => {
      const covers = this.writes;
      try {
        await this.worker.sync(this.timeoutMs);
        this.synced = Math.max(this.synced, covers);
        this.unreachable = false;
        return true;
      } catch {
        this.unreachable = true;
        return false;
      } finally {
        this.pending = null;
      }
    })();
    return this.pending;
  }
}
