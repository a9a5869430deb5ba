import type { Client, InStatement, ResultSet, Row } from "@libsql/client";
import Database from "libsql";
import { BoundedCache } from "../process/bounded-cache";
import { overriding } from "./client-proxy";

/**
 * Reads on an embedded database file with their statements prepared once. `@libsql/client` prepares
 * every statement on every call and builds each row with a property definition per column; a context's
 * search statement took longer to prepare than to run (bench/context-profile.ts: 3 ms of 10). Here a
 * batch (or a single statement) that only reads runs on a connection of its own, opened `query_only`,
 * from a bounded cache of prepared statements, and its rows are built from one prototype per shape.
 *
 * What is taken: statements that start with SELECT or WITH, in a batch of no other kind (deferred or
 * read mode, as drizzle's batch and readAll send them). Everything else goes to the client as before:
 * writes, interactive transactions, pragmas, a batch in write mode. A statement that turns out to
 * write (WITH … INSERT) fails on the read-only connection before anything is written, is remembered,
 * and the batch runs on the client; so does any other failure, which the client then reports in its
 * own words, except a file locked past the busy timeout (SQLITE_BUSY, thrown as it is: the client
 * would wait the timeout again, and the API answers it with 503). The answers are the client's: the same rows (named, enumerable columns; indexed values;
 * integers as numbers, refused past 2^53 as the client refuses them), columns and column types.
 */
const CAPACITY = 256;

type Connection = Database.Database;
type Statement = ReturnType<Connection["prepare"]>;
type Prepared = { statement: Statement; columns: string[]; types: string[]; shape: object };

const READING = /^\s*(select|with)\b/i;
const SCHEMA_CHANGED = Symbol("schema changed");
const VALUES = Symbol("values");

/** What a cached client did so far: statements kept, reads answered from a kept one, batches sent to the client. */
export type StatementCacheStats = { kept: number; reused: number; toClient: number };
const stats = new WeakMap<Client, StatementCacheStats>();

/** The counts of a client made by withStatementCache (undefined for any other). */
export function statementCacheStats(client: Client): StatementCacheStats | undefined {
  const s = stats.get(client);
  return s && { ...s };
}

export function withStatementCache(client: Client, file: string, timeoutMs: number): Client {
  const reads = new KeptReads(file, timeoutMs);
  const cached = overriding(client, {
    batch: async (statements, mode) => (mode === undefined || mode === "deferred" || mode === "read" ? reads.batch(statements) : reads.toClient()) ?? client.batch(statements, mode),
    execute: async (statement) => reads.batch([statement])?.[0] ?? client.execute(statement),
    close: () => {
      reads.close();
      client.close();
    },
  });
  stats.set(cached, reads.counts);
  return cached;
}

/** The read-only connection, its kept statements, and the statements found to write. */
class KeptReads {
  private connection: Connection | undefined;
  /** Closed with the client: every read goes to the client, which says it is closed. */
  private closed = false;
  /** The schema the kept statements' columns were read at: another connection's migration changes them. */
  private schema: unknown;
  private schemaVersion: Statement | undefined;
  private readonly prepared = new BoundedCache<string, Prepared>(CAPACITY);
  private readonly writers = new BoundedCache<string, true>(CAPACITY);
  readonly counts: StatementCacheStats = { kept: 0, reused: 0, toClient: 0 };

  constructor(
    private readonly file: string,
    private readonly timeoutMs: number,
  ) {}

  /** A batch's answers, or undefined when the client must run it. */
  batch(statements: InStatement[]): ResultSet[] | undefined {
    const answered = this.tryBatch(statements);
    // Another connection changed the schema (a migration) since the kept statements were prepared:
    // once more on a connection opened now; a second change in between is left to the client.
    if (answered !== SCHEMA_CHANGED) return answered;
    this.drop();
    const again = this.tryBatch(statements);
    return again === SCHEMA_CHANGED ? this.toClient() : again;
  }

  private tryBatch(statements: InStatement[]): ResultSet[] | undefined | typeof SCHEMA_CHANGED {
    const texts = statements.map(sqlOf);
    if (this.closed || !texts.every((t) => READING.test(t) && !this.writers.get(t))) return this.toClient();
    let current = "";
    let db: Connection;
    try {
      db = this.open();
    } catch (error) {
      if (isBusy(error)) throw error;
      // The client opens the same file and answers in its own words.
      return this.toClient();
    }
    try {
      db.exec("BEGIN DEFERRED");
      // Read inside the batch's own transaction (on its own it cost as much as a context's reads): when
      // another connection changed the schema (a migration), the kept statements are the old one's.
      if (this.schemaNow() !== this.schema) {
        db.exec("ROLLBACK");
        return SCHEMA_CHANGED;
      }
      const results = statements.map((s, i) => run(this.prepare(db, (current = texts[i]!)), argsOf(s)));
      db.exec("COMMIT");
      return results;
    } catch (error) {
      if (db.inTransaction) db.exec("ROLLBACK");
      if (isBusy(error)) throw error;
      if ((error as { code?: string }).code === "SQLITE_READONLY") this.writers.set(current, true);
      // A statement may have failed to prepare or run: it is dropped, and the client runs the batch.
      this.prepared.delete(current);
      return this.toClient();
    }
  }

  toClient(): undefined {
    this.counts.toClient++;
    return undefined;
  }

  close(): void {
    this.closed = true;
    this.connection?.close();
    this.connection = undefined;
    this.schemaVersion = undefined;
    this.prepared.clear();
  }

  /** The connection and its kept statements given up: another connection changed the schema they were prepared against. */
  private drop(): void {
    this.connection?.close();
    this.connection = undefined;
    this.prepared.clear();
  }

  /** The read-only connection, opened when there is none; the schema it prepares against read as it opens. */
  private open(): Connection {
    if (!this.connection) {
      const connection = new Database(this.file, { timeout: this.timeoutMs });
      try {
        connection.exec("PRAGMA query_only = 1");
        this.schemaVersion = connection.prepare("PRAGMA schema_version");
        this.schema = this.schemaNow();
      } catch (error) {
        connection.close();
        throw error;
      }
      this.connection = connection;
    }
    return this.connection;
  }

  private schemaNow(): unknown {
    return (this.schemaVersion!.all([]) as { schema_version: number }[])[0]?.schema_version;
  }

  private prepare(db: Connection, sql: string): Prepared {
    let p = this.prepared.get(sql);
    if (p) this.counts.reused++;
    else {
      const statement = db.prepare(sql);
      statement.safeIntegers(true);
      statement.raw(true);
      const described = statement.columns();
      const columns = described.map((c) => c.name);
      p = { statement, columns, types: described.map((c) => c.type ?? ""), shape: rowShape(columns) };
      this.prepared.set(sql, p);
      this.counts.kept = this.prepared.size;
    }
    return p;
  }
}

/** Locked by another connection for the whole busy timeout: the client would wait as long again. */
const isBusy = (error: unknown) => (error as { code?: unknown } | null)?.code?.toString().startsWith("SQLITE_BUSY") === true;

const sqlOf = (s: InStatement): string => (typeof s === "string" ? s : s.sql);

function argsOf(s: InStatement): unknown[] | Record<string, unknown> {
  if (typeof s === "string" || s.args === undefined) return [];
  if (Array.isArray(s.args)) return s.args.map(valueToSql);
  const named: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(s.args)) named["@$:".includes(name[0]!) ? name.slice(1) : name] = valueToSql(value);
  return named;
}

/** As the client converts an argument (intMode "number"). */
function valueToSql(value: unknown): unknown {
  if (typeof value === "number" && !Number.isFinite(value)) throw new RangeError("Only finite numbers (not Infinity or NaN) can be passed as arguments");
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof ArrayBuffer) return Buffer.from(value);
  if (value instanceof Date) return value.valueOf();
  if (value === undefined) throw new TypeError("undefined cannot be passed as argument to the database");
  return value;
}

/** As the client converts a value read (intMode "number"). */
function valueFromSql(value: unknown): unknown {
  if (typeof value === "bigint") {
    if (value < -9007199254740991n || value > 9007199254740991n) throw new RangeError("Received integer which cannot be safely represented as a JavaScript number");
    return Number(value);
  }
  if (value instanceof Buffer) return value.buffer;
  return value;
}

/**
 * The prototype of a statement's rows: indexed values and `length` (not enumerable, as the client's), read
 * from the row's own values, so a row is one object with its named columns assigned.
 */
function rowShape(columns: string[]): object {
  const shape = {};
  Object.defineProperty(shape, "length", { value: columns.length });
  columns.forEach((_, i) => Object.defineProperty(shape, i, { get(this: { [VALUES]: unknown[] }) { return this[VALUES][i]; } }));
  return shape;
}

function run(p: Prepared, args: unknown[] | Record<string, unknown>): ResultSet {
  const raw = p.statement.all(args) as unknown[][];
  const rows = raw.map((values) => {
    const row = Object.create(p.shape) as Record<string | symbol, unknown>;
    const converted = values.map(valueFromSql);
    // Not enumerable, as the client's indexed values: a spread or a deep comparison sees the named columns alone.
    Object.defineProperty(row, VALUES, { value: converted });
    for (let i = 0; i < p.columns.length; i++) {
      const name = p.columns[i]!;
      // The first of two columns of one name is the name's value, and `length` and indexes stay the row's, as the client has them.
      if (Object.hasOwn(row, name) || Object.hasOwn(p.shape, name)) continue;
      // As the client sets it: own and enumerable whatever the name (`constructor`, `__proto__`).
      if (name in row) Object.defineProperty(row, name, { value: converted[i], enumerable: true, configurable: true, writable: true });
      else row[name] = converted[i];
    }
    return row as unknown as Row;
  });
  return {
    columns: p.columns,
    columnTypes: p.types,
    rows,
    rowsAffected: 0,
    lastInsertRowid: undefined,
    toJSON: () => ({ columns: p.columns, columnTypes: p.types, rows: rows.map((r) => Array.from(r as ArrayLike<unknown>)), rowsAffected: 0, lastInsertRowid: null }),
  };
}
