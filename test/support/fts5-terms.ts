import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createClient, type Client } from "@libsql/client";
import { ftsTermFromBytes } from "@/lib/context/search/fts-bytes";

/**
 * A real libSQL file database with one FTS5 table and its fts5vocab 'instance' view: the terms FTS5
 * stored for a text, in their order, are the truth the TypeScript tokenizer is held to.
 */
export interface Fts5Terms {
  /** The terms FTS5 stores for each text (one row each), as ftsTermFromBytes spells them. */
  termsOf(texts: readonly string[]): Promise<string[][]>;
  close(): void;
}

export async function openFts5Terms(tokenize = "porter unicode61"): Promise<Fts5Terms> {
  const dir = mkdtempSync(path.join(tmpdir(), "baton-fts5-"));
  const db: Client = createClient({ url: pathToFileURL(path.join(dir, "fts.db")).href });
  await db.execute(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize='${tokenize}')`);
  await db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')");
  return {
    async termsOf(texts) {
      await db.batch(
        texts.map((text, i) => ({ sql: "INSERT INTO t(rowid, x) VALUES (?, ?)", args: [i + 1, text] })),
        "write",
      );
      // Terms are read as bytes: a porter stem can end inside a multi-byte character, and the client
      // refuses (panics on) text that is not UTF-8. One column, so the offset orders a row's terms.
      const rows = (await db.execute("SELECT doc, CAST(term AS BLOB) AS term FROM v ORDER BY doc, col, offset")).rows;
      await db.execute("DELETE FROM t");
      const terms: string[][] = texts.map(() => []);
      for (const row of rows) {
        terms[Number(row.doc) - 1]!.push(ftsTermFromBytes(new Uint8Array(row.term as ArrayBuffer)));
      }
      return terms;
    },
    close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
