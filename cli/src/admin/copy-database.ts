import type { InStatement, InValue, Transaction } from "@libsql/client";

/**
 * Copies a whole SQLite/libSQL database, schema and rows, from one open transaction to another: a
 * read transaction on the source (one snapshot, so a server writing meanwhile cannot make the copy
 * inconsistent) and a write transaction on the target (all or nothing). Used where VACUUM INTO
 * cannot be: a backup of a libSQL server (sqld, Turso) and every restore.
 *
 * The order is a dump's: tables, their unique indexes, their rows, then the other indexes, full-text tables and triggers, so no
 * trigger fires on a copied row and every index and FTS5 index is built from the copied rows rather
 * than copied byte for byte from its shadow tables.
 */

type SchemaItem = { type: string; name: string; tableName: string; sql: string };

/** Rows read and written per round trip: small enough for one HTTP request to a libSQL server. */
const ROWS_PER_BATCH = 500;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

export type CopyResult = { tables: number; rows: number };

export async function copyDatabase(source: Transaction, target: Transaction): Promise<CopyResult> {
  // Tables come in the order they were made, not the order their foreign keys need: checked at commit.
  await target.execute("PRAGMA defer_foreign_keys = ON");
  const schema = await readSchema(source);
  const shadows = await shadowTables(source, schema);
  const isVirtual = (i: SchemaItem) => /^CREATE\s+VIRTUAL\s+TABLE/i.test(i.sql);
  const tables = schema.filter((i) => i.type === "table" && !isVirtual(i) && !shadows.has(i.name) && !i.name.startsWith("sqlite_"));
  let rows = 0;
  for (const table of tables) await target.execute(table.sql);
  // A foreign key may name a column that a UNIQUE index (not the table's own sql) makes a key, as
  // learnings.superseded_by names learnings.id: without that index every insert into the table is a
  // "foreign key mismatch". Unique indexes come before the rows; the others after, built once.
  const indexes = schema.filter((i) => i.type === "index" && !shadows.has(i.tableName));
  const unique = (i: SchemaItem) => /^CREATE\s+UNIQUE\s+INDEX/i.test(i.sql);
  for (const index of indexes.filter(unique)) await target.execute(index.sql);
  for (const table of tables) rows += await copyRows(source, target, table.name);
  await copySequences(source, target, schema);
  for (const index of indexes.filter((i) => !unique(i))) await target.execute(index.sql);
  for (const fts of schema.filter((i) => i.type === "table" && isVirtual(i))) await recreateVirtualTable(source, target, fts);
  for (const item of schema.filter((i) => i.type === "view" || i.type === "trigger")) await target.execute(item.sql);
  return { tables: tables.length, rows };
}

/** A libSQL vector index (CREATE INDEX … libsql_vector_idx(…)): its shadow tables are its own, made again with it. */
export const isVectorIndex = (sql: string) => /libsql_vector_idx/i.test(sql);

async function readSchema(tx: Transaction): Promise<SchemaItem[]> {
  // Indexes SQLite makes for UNIQUE and PRIMARY KEY constraints have no sql: the tables' sql makes them again.
  const result = await tx.execute("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid");
  return result.rows.map((r) => ({ type: String(r.type), name: String(r.name), tableName: String(r.tbl_name), sql: String(r.sql) }));
}

/**
 * Tables that virtual tables and libSQL vector indexes keep for themselves: recreating the virtual
 * table or the index makes them again, filled from the copied rows.
 */
async function shadowTables(tx: Transaction, schema: SchemaItem[]): Promise<Set<string>> {
  const shadows = new Set<string>(["libsql_vector_meta_shadow"]);
  for (const row of (await tx.execute("PRAGMA table_list")).rows) if (row.type === "shadow") shadows.add(String(row.name));
  for (const index of schema) if (index.type === "index" && isVectorIndex(index.sql)) shadows.add(`${index.name}_shadow`);
  return shadows;
}

async function copyRows(source: Transaction, target: Transaction, table: string): Promise<number> {
  let copied = 0;
  for (;;) {
    // Paged inside the one read transaction: the snapshot does not move between pages.
    const page = await source.execute({ sql: `SELECT * FROM ${quote(table)} LIMIT ? OFFSET ?`, args: [ROWS_PER_BATCH, copied] });
    if (!page.rows.length) return copied;
    const insert = `INSERT INTO ${quote(table)} (${page.columns.map(quote).join(", ")}) VALUES (${page.columns.map(() => "?").join(", ")})`;
    await target.batch(page.rows.map((row): InStatement => ({ sql: insert, args: page.columns.map((_, i) => row[i] as InValue) })));
    copied += page.rows.length;
    if (page.rows.length < ROWS_PER_BATCH) return copied;
  }
}

/** AUTOINCREMENT's high-water marks: a restored database must not hand out an id used before a delete. */
async function copySequences(source: Transaction, target: Transaction, schema: SchemaItem[]): Promise<void> {
  if (!schema.some((i) => i.name === "sqlite_sequence")) return;
  const rows = (await source.execute("SELECT name, seq FROM sqlite_sequence")).rows;
  await target.execute("DELETE FROM sqlite_sequence");
  if (rows.length) await target.batch(rows.map((r) => ({ sql: "INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", args: [r.name as InValue, r.seq as InValue] })));
}

/**
 * An FTS5 table made again, with its settings (the BM25 weights of `rank`, automerge, …) from its
 * config table; an external-content index is rebuilt from its content table, a table that holds its
 * own text gets its rows copied.
 */
async function recreateVirtualTable(source: Transaction, target: Transaction, table: SchemaItem): Promise<void> {
  if (!/\busing\s+fts5\s*\(/i.test(table.sql)) throw new Error(`cannot copy the virtual table ${table.name}: only FTS5 tables are supported.`);
  await target.execute(table.sql);
  const name = quote(table.name);
  const config = (await source.execute(`SELECT k, v FROM ${quote(`${table.name}_config`)} WHERE k <> 'version'`)).rows;
  for (const { k, v } of config) await target.execute({ sql: `INSERT INTO ${name} (${name}, rank) VALUES (?, ?)`, args: [k as InValue, v as InValue] });
  const content = /\bcontent\s*=\s*(['"]?)([^'",)]*)\1/i.exec(table.sql);
  if (content && content[2] === "") throw new Error(`cannot copy the contentless FTS5 table ${table.name}: its text is not stored.`);
  if (content) {
    await target.execute(`INSERT INTO ${name} (${name}) VALUES ('rebuild')`);
    return;
  }
  const columns = (await source.execute(`SELECT * FROM ${name} LIMIT 0`)).columns;
  for (let offset = 0; ; offset += ROWS_PER_BATCH) {
    const page = await source.execute({ sql: `SELECT rowid, * FROM ${name} LIMIT ? OFFSET ?`, args: [ROWS_PER_BATCH, offset] });
    if (!page.rows.length) return;
    const insert = `INSERT INTO ${name} (rowid, ${columns.map(quote).join(", ")}) VALUES (?, ${columns.map(() => "?").join(", ")})`;
    await target.batch(page.rows.map((row) => ({ sql: insert, args: page.columns.map((_, i) => row[i] as InValue) })));
  }
}
