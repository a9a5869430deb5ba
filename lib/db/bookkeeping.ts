import "server-only";
import { LibsqlError, type Client, type InStatement, type ResultSet, type Row, type TransactionMode, type Value } from "@libsql/client";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { inBookkeeping } from "../process/write-behind";
import { loggable } from "../process/loggable-error";
import { overriding } from "./client-proxy";

/**
 * Bookkeeping: the writes made behind the requests (lib/process/write-behind.ts: the served-context log
 * and last-injected days, tokens' last use, rate-limit counts), which no later read waits for (what a
 * batch reads back, it reads in the batch); write-behind runs each batch `asBookkeeping`.
 *
 * On an embedded file, libSQL runs a statement as a synchronous native call: a bookkeeping batch held
 * the event loop, and with it every request, for as long as it took to write (at 100k learnings, a
 * first-of-day flush rewrote 2,000 scattered rows in 110 ms: the context's p99 there), and for up to the
 * busy timeout while another process held the write lock. So on a file, bookkeeping is written by a
 * connection of its own in a worker thread; the requests go on reading meanwhile (WAL lets readers
 * through a write). On a libSQL server a write is already a request the event loop waits for, and an
 * embedded replica sends its writes to the primary (lib/db/replica-client.ts): both stay as they are.
 */

type Request = { id: number; statements: InStatement[]; mode: TransactionMode };
/** A result set as it crosses to the main thread: its rows as arrays of values. */
type Answer = { columns: string[]; columnTypes: string[]; rows: Value[][]; rowsAffected: number; lastInsertRowid: bigint | undefined };
type Failure = { message: string; code: string; extendedCode?: string; rawCode?: number };
type Reply = { id: number; results?: Answer[]; error?: Failure };

// Runs in the worker: one client on the file, one batch at a time.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { createClient } = require("node:module").createRequire(workerData.from)("@libsql/client");
const client = createClient({ url: workerData.url, timeout: workerData.timeoutMs });
const answer = (r) => ({ columns: r.columns, columnTypes: r.columnTypes, rows: r.rows.map((row) => Array.prototype.slice.call(row)), rowsAffected: r.rowsAffected, lastInsertRowid: r.lastInsertRowid });
parentPort.on("message", async ({ id, statements, mode }) => {
  try {
    parentPort.postMessage({ id, results: (await client.batch(statements, mode)).map(answer) });
  } catch (e) {
    const code = String((e && e.code) || "UNKNOWN");
    const message = String((e && e.message) || e);
    // LibsqlError puts its code before its message; the server's LibsqlError will again.
    const bare = message.startsWith(code + ": ") ? message.slice(code.length + 2) : message;
    parentPort.postMessage({ id, error: { message: bare, code, extendedCode: e && e.extendedCode, rawCode: e && e.rawCode } });
  }
});
`;

const closedError = () => new LibsqlError("The client is closed", "CLIENT_CLOSED");

class WriterThread {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (results: ResultSet[]) => void; reject: (error: Error) => void }>();
  private closed = false;
  /** Set when the thread failed (its module would not load, it ran out of memory): bookkeeping then runs on the client. */
  failed = false;

  constructor(private readonly workerData: { url: string; timeoutMs: number; from: string }) {}

  batch(statements: InStatement[], mode: TransactionMode): Promise<ResultSet[]> {
    if (this.closed) return Promise.reject(closedError());
    const worker = this.started();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      // A write under way keeps the process alive (graceful shutdown waits for it); an idle thread does not.
      if (this.waiting.size === 1) worker.ref();
      try {
        worker.postMessage({ id, statements, mode } satisfies Request);
      } catch (error) {
        this.settled(id);
        reject(error as Error);
      }
    });
  }

  close(): void {
    this.closed = true;
    void this.worker?.terminate();
    this.worker = null;
    this.failAll(closedError());
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: this.workerData });
    worker.unref();
    worker.on("message", (reply: Reply) => this.answer(reply));
    const lost = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      if (!this.closed) {
        this.failed = true;
        console.error("baton: the bookkeeping writer thread failed; bookkeeping is written on the main thread from now on", loggable(error));
      }
      this.failAll(error);
    };
    worker.on("error", lost);
    worker.on("exit", (code) => lost(new Error(`the bookkeeping writer thread exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private answer(reply: Reply): void {
    const waiter = this.waiting.get(reply.id);
    this.settled(reply.id);
    if (!waiter) return;
    const e = reply.error;
    if (e) waiter.reject(new LibsqlError(e.message, e.code, e.extendedCode, e.rawCode));
    else waiter.resolve((reply.results ?? []).map(resultSet));
  }

  private settled(id: number): void {
    this.waiting.delete(id);
    if (!this.waiting.size) this.worker?.unref();
  }

  private failAll(error: Error): void {
    const waiters = [...this.waiting.values()];
    this.waiting.clear();
    for (const w of waiters) w.reject(error);
  }
}

/** The result set the client would have answered: rows as libSQL builds them (indexed values, named enumerable columns). */
function resultSet(a: Answer): ResultSet {
  const rows = a.rows.map((values) => {
    const row = {} as Row;
    Object.defineProperty(row, "length", { value: values.length });
    values.forEach((value, i) => {
      Object.defineProperty(row, i, { value });
      const column = a.columns[i]!;
      if (!Object.hasOwn(row, column)) Object.defineProperty(row, column, { value, enumerable: true, configurable: true, writable: true });
    });
    return row;
  });
  const json = () => ({ columns: a.columns, columnTypes: a.columnTypes, rows, rowsAffected: a.rowsAffected, lastInsertRowid: a.lastInsertRowid?.toString() ?? null });
  return { columns: a.columns, columnTypes: a.columnTypes, rows, rowsAffected: a.rowsAffected, lastInsertRowid: a.lastInsertRowid, toJSON: json };
}

/**
 * `client` on the database file `file`, with bookkeeping (batches and statements run inside
 * asBookkeeping) written by the writer thread, with the same busy timeout and the same answers; on the
 * client itself once the thread has failed. `from`: the module @libsql/client is resolved from, as
 * from this one (a thread made from source resolves bare names from the working directory; and
 * Next.js's bundler puts its own module numbers in place of a resolve made here).
 */
export function withBookkeepingThread(client: Client, file: string, timeoutMs: number, from = import.meta.url): Client {
  const thread = new WriterThread({ url: pathToFileURL(file).href, timeoutMs, from });
  const threaded = () => inBookkeeping() && !thread.failed;
  return overriding(client, {
    batch: (statements, mode) => (threaded() ? thread.batch(statements, mode ?? "deferred") : client.batch(statements, mode)),
    execute: async (statement) => (threaded() ? (await thread.batch([statement], "deferred"))[0]! : client.execute(statement)),
    close: () => {
      thread.close();
      client.close();
    },
  });
}
