import "server-only";
import { LibsqlError, type Client, type InArgs, type InStatement, type ResultSet, type Row, type TransactionMode, type Value } from "@libsql/client";
import { AsyncLocalStorage } from "node:async_hooks";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { processWide } from "../process/process-state";

/**
 * Bookkeeping: the writes made behind the requests (lib/process/write-behind.ts: the served-context log
 * and last-injected days, tokens' last use, rate-limit counts), which no later read waits for (what a
 * batch reads back, it reads in the batch), marked by running inside `asBookkeeping`.
 *
 * On an embedded file, libSQL runs a statement as a synchronous native call: a bookkeeping batch held
 * the event loop, and with it every request, for as long as it took to write (at 100k learnings, a
 * first-of-day flush rewrote 2,000 scattered rows in 110 ms: the context's p99 there), and for up to the
 * busy timeout while another process held the write lock. So on a file, bookkeeping is written by a
 * connection of its own in a worker thread; the requests go on reading meanwhile (WAL lets readers
 * through a write). On a libSQL server a write is already a request the event loop waits for, and an
 * embedded replica sends its writes to the primary (lib/db/replica-client.ts): both stay as they are.
 */
// One for the process: the routes that mark bookkeeping and the database handle that reads the mark may be
// bundled apart, each with its own copy of this module (lib/process/process-state.ts).
const bookkeepingScope = processWide("bookkeeping scope", () => new AsyncLocalStorage<true>());

/** Runs `work` as bookkeeping: see above, and lib/db/replica-client.ts (no sync waited for to read it back). */
export function asBookkeeping<T>(work: () => Promise<T>): Promise<T> {
  return bookkeepingScope.run(true, work);
}

export function inBookkeeping(): boolean {
  return bookkeepingScope.getStore() === true;
}

type Request = { id: number; statements: InStatement[]; mode: TransactionMode };
/** A result set as it crosses to the main thread: its rows as arrays of values. */
type Answer = { columns: string[]; columnTypes: string[]; rows: Value[][]; rowsAffected: number; lastInsertRowid: bigint | undefined };
type Reply = { id: number; results?: Answer[]; error?: { message: string; code: string; rawCode?: number } };

// Runs in the worker: one client on the file, one batch at a time.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { createClient } = require("@libsql/client");
const client = createClient({ url: workerData.url, timeout: workerData.timeoutMs });
const answer = (r) => ({ columns: r.columns, columnTypes: r.columnTypes, rows: r.rows.map((row) => Array.prototype.slice.call(row)), rowsAffected: r.rowsAffected, lastInsertRowid: r.lastInsertRowid });
parentPort.on("message", async ({ id, statements, mode }) => {
  try {
    parentPort.postMessage({ id, results: (await client.batch(statements, mode)).map(answer) });
  } catch (error) {
    parentPort.postMessage({ id, error: { message: String((error && error.message) || error), code: String((error && error.code) || "UNKNOWN"), rawCode: error && error.rawCode } });
  }
});
`;

class WriterThread {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (results: ResultSet[]) => void; reject: (error: Error) => void }>();
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly timeoutMs: number,
  ) {}

  batch(statements: InStatement[], mode: TransactionMode): Promise<ResultSet[]> {
    if (this.closed) return Promise.reject(new LibsqlError("The client is closed", "CLIENT_CLOSED"));
    const worker = this.started();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      // A write under way keeps the process alive (graceful shutdown waits for it); an idle thread does not.
      if (this.waiting.size === 1) worker.ref();
      worker.postMessage({ id, statements, mode } satisfies Request);
    });
  }

  close(): void {
    this.closed = true;
    void this.worker?.terminate();
    this.worker = null;
    this.failAll(new LibsqlError("The client is closed", "CLIENT_CLOSED"));
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { url: this.url, timeoutMs: this.timeoutMs } });
    worker.unref();
    worker.on("message", (reply: Reply) => this.answer(reply));
    // A thread that dies (its module failed to load, it ran out of memory) fails what it held; the next write starts another.
    const lost = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.failAll(error);
    };
    worker.on("error", lost);
    worker.on("exit", (code) => lost(new Error(`the bookkeeping writer thread exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private answer(reply: Reply): void {
    const waiter = this.waiting.get(reply.id);
    this.waiting.delete(reply.id);
    if (!this.waiting.size) this.worker?.unref();
    if (!waiter) return;
    if (reply.error) waiter.reject(new LibsqlError(reply.error.message, reply.error.code, undefined, reply.error.rawCode));
    else waiter.resolve((reply.results ?? []).map(resultSet));
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
 * asBookkeeping) written by the writer thread, with the same busy timeout and the same answers.
 */
export function withBookkeepingThread(client: Client, file: string, timeoutMs: number): Client {
  const thread = new WriterThread(pathToFileURL(file).href, timeoutMs);
  return new Proxy(client, {
    get(target, property) {
      if (property === "batch")
        return (statements: Array<InStatement | [string, InArgs?]>, mode?: TransactionMode) =>
          inBookkeeping() ? thread.batch(statements.map(asStatement), mode ?? "deferred") : target.batch(statements, mode);
      if (property === "execute")
        return async (statement: InStatement | string, args?: InArgs) => {
          const s = asStatement(typeof statement === "string" ? [statement, args] : statement);
          return inBookkeeping() ? (await thread.batch([s], "deferred"))[0]! : target.execute(s);
        };
      if (property === "close")
        return () => {
          thread.close();
          target.close();
        };
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function asStatement(s: InStatement | [string, InArgs?]): InStatement {
  if (typeof s === "string") return s;
  if (Array.isArray(s)) return s[1] === undefined ? s[0] : { sql: s[0], args: s[1] };
  return s;
}
