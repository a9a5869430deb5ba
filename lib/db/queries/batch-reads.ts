import type { InArgs, InStatement } from "@libsql/client";
import { fillPlaceholders } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../client";
import { clientOf } from "../client-of";

/** A query drizzle built, taken apart as drizzle's own batch takes it: its statement, and how its rows become its result. */
type Built = { sql: string; params: unknown[]; map: (response: unknown) => unknown };
type Prepared = { getQuery(): { sql: string; params: unknown[] }; mapResult(response: unknown, isFromBatch: boolean): unknown };

/** A statement built once (keptQuery), with the values this read gives its placeholders; Q is the query it was built from. */
export type Kept<Q> = { kept: Built; values: Record<string, unknown>; query?: Q };

/**
 * A query not yet run and what to make of its rows. Reads are gathered into one batch: one
 * transaction on a file, one HTTP request to a libSQL server, a local read on an embedded replica.
 */
export type Read<T> = { query: BatchItem<"sqlite"> | Kept<unknown>; decode: (result: unknown) => T };

export function read<Q extends BatchItem<"sqlite">, T = Awaited<Q>>(query: Q | Kept<Q>, decode?: (result: Awaited<Q>) => T): Read<T> {
  return { query: query as Read<T>["query"], decode: (decode ?? ((r: unknown) => r)) as (result: unknown) => T };
}

/**
 * A query built once for each database, what varies in it a `sql.placeholder`: drizzle writes a query's
 * SQL from its parts on every call, which for a context's first batch cost more than SQLite's run of it
 * (BENCHMARKS.md, issue 25). For the reads every context makes; `values` fills the placeholders (copied:
 * the read answers for the values given now). A query is taken apart as drizzle's own batch does it
 * (`_prepare`, `getQuery`, `mapResult`): test/integration/kept-queries.test.ts fails if drizzle changes them.
 */
export function keptQuery<Q extends BatchItem<"sqlite">>(build: (db: Db) => Q): (db: Db, values?: Record<string, unknown>) => Kept<Q> {
  const built = new WeakMap<Db, Built>();
  return (db, values) => {
    let kept = built.get(db);
    if (!kept) built.set(db, (kept = builtOf(build(db))));
    return { kept, values: { ...values } };
  };
}

function builtOf(query: BatchItem<"sqlite"> | Kept<unknown>): Built {
  if ("kept" in query) return query.kept;
  const prepared = (query as unknown as { _prepare(): Prepared })._prepare();
  const { sql, params } = prepared.getQuery();
  return { sql, params, map: (response) => prepared.mapResult(response, true) };
}

/** A read's decoded result; undefined for a read not made. */
type ResultOf<X> = X extends Read<infer T> ? T : undefined;
/** What readAll answers for reads R: each read's decoded result by its name. */
export type Results<R> = { [K in keyof R]: ResultOf<R[K]> };

/**
 * Runs the reads given (undefined ones are skipped) in one batch, and answers each by its name. The
 * statements go to the client as drizzle's batch sends them (its default mode), kept ones with their values.
 */
export async function readAll<R extends Record<string, Read<unknown> | undefined>>(db: Db, reads: R): Promise<Results<R>> {
  const named = Object.entries(reads).filter((e): e is [string, Read<unknown>] => e[1] !== undefined);
  const out: Record<string, unknown> = {};
  if (!named.length) return out as Results<R>;
  const built = named.map(([, r]) => builtOf(r.query));
  const statements = named.map(([, r], i): InStatement => {
    const { sql, params } = built[i]!;
    return { sql, args: ("kept" in r.query ? fillPlaceholders(params, r.query.values) : params) as InArgs };
  });
  const results = await clientOf(db).batch(statements);
  named.forEach(([name, r], i) => (out[name] = r.decode(built[i]!.map(results[i]))));
  return out as Results<R>;
}
