import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../client";

/**
 * A query not yet run and what to make of its rows. Reads are gathered into one `db.batch`: one
 * transaction on a file, one HTTP request to a libSQL server, a local read on an embedded replica.
 */
export type Read<T> = { query: BatchItem<"sqlite">; decode: (result: unknown) => T };

export function read<Q extends BatchItem<"sqlite">, T = Awaited<Q>>(query: Q, decode?: (result: Awaited<Q>) => T): Read<T> {
  return { query, decode: (decode ?? ((r: unknown) => r)) as (result: unknown) => T };
}

/** A read's decoded result; undefined for a read not made. */
type ResultOf<X> = X extends Read<infer T> ? T : undefined;
/** What readAll answers for reads R: each read's decoded result by its name. */
export type Results<R> = { [K in keyof R]: ResultOf<R[K]> };

/** Runs the reads given (undefined ones are skipped) in one batch, and answers each by its name. */
export async function readAll<R extends Record<string, Read<unknown> | undefined>>(db: Db, reads: R): Promise<Results<R>> {
  const named = Object.entries(reads).filter((e): e is [string, Read<unknown>] => e[1] !== undefined);
  const out: Record<string, unknown> = {};
  if (!named.length) return out as Results<R>;
  const [first, ...rest] = named.map(([, r]) => r.query);
  const results = await db.batch([first!, ...rest]);
  named.forEach(([name, r], i) => (out[name] = r.decode(results[i])));
  return out as Results<R>;
}
