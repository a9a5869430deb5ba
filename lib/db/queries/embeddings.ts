import { and, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { DbOrTx } from "../client";
import { appMeta, learnings, type LearningKind } from "../schema";
import { rankable, writerName } from "./context-candidates";
import { personalAndProject, visibleTo } from "./scope";

// The vector table's width is the embedding model's, known only at run time, so it is made here (by
// the embedding worker, once it has seen a vector) rather than by a drizzle migration:
//   learning_vectors(seq → learnings.seq, embedding F32_BLOB(n)) with a libSQL vector index.

export async function vectorTableWidth(db: DbOrTx): Promise<number | null> {
  const [row] = await db.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, "embedding_dimensions"));
  return row ? Number(row.value) : null;
}

export async function embeddingModel(db: DbOrTx): Promise<string | null> {
  const [row] = await db.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, "embedding_model"));
  return row?.value ?? null;
}

/** (Re)creates the vector table for a model; a new model or width starts over (every learning re-embedded). */
export async function resetVectorTable(db: DbOrTx, params: { dimensions: number; model: string }): Promise<void> {
  const n = Math.trunc(params.dimensions);
  if (!(n > 0 && n <= 8192)) throw new Error(`unusable embedding width ${params.dimensions}`);
  await db.run(sql.raw("DROP INDEX IF EXISTS learning_vectors_idx"));
  await db.run(sql.raw("DROP TABLE IF EXISTS learning_vectors"));
  await db.run(sql.raw(`CREATE TABLE learning_vectors (seq INTEGER PRIMARY KEY REFERENCES learnings(seq) ON DELETE CASCADE, embedding F32_BLOB(${n}) NOT NULL)`));
  await db.run(sql.raw("CREATE INDEX learning_vectors_idx ON learning_vectors (libsql_vector_idx(embedding, 'metric=cosine'))"));
  for (const [key, value] of [
    ["embedding_dimensions", String(n)],
    ["embedding_model", params.model],
  ] as const) {
    await db.insert(appMeta).values({ key, value }).onConflictDoUpdate({ target: appMeta.key, set: { value } });
  }
  await db.update(learnings).set({ needsEmbedding: true }).where(eq(learnings.needsEmbedding, false));
}

export async function learningsToEmbed(db: DbOrTx, params: { limit: number }) {
  return db.select({ seq: learnings.seq, content: learnings.content }).from(learnings).where(eq(learnings.needsEmbedding, true)).orderBy(learnings.seq).limit(params.limit);
}

/** Lowers the flag of a learning the embeddings API refuses, without a vector (an edit raises it again). */
export async function skipEmbedding(db: DbOrTx, params: { seq: number; content: string }): Promise<void> {
  await db.update(learnings).set({ needsEmbedding: false }).where(and(eq(learnings.seq, params.seq), eq(learnings.content, params.content)));
}

/**
 * Stores a vector and lowers the flag, unless the content changed while it was being embedded (then
 * the trigger has raised the flag again and the next round embeds the new text).
 */
export async function saveVector(db: DbOrTx, params: { seq: number; content: string; vector: number[] }): Promise<void> {
  await db.run(sql`INSERT OR REPLACE INTO learning_vectors (seq, embedding) VALUES (${params.seq}, vector32(${JSON.stringify(params.vector)}))`);
  await db.update(learnings).set({ needsEmbedding: false }).where(and(eq(learnings.seq, params.seq), eq(learnings.content, params.content)));
}

/** New vectors change rankings: move the version the context cache is keyed on. */
export async function bumpContextVersion(db: DbOrTx): Promise<void> {
  await db
    .update(appMeta)
    .set({ value: sql`CAST(${appMeta.value} AS INTEGER) + 1` })
    .where(eq(appMeta.key, "context_version"));
}

/** The nearest learnings to a vector among those a context may draw on (the user's personal ones and one project's), nearest first. */
export async function nearestLearnings(
  db: DbOrTx,
  params: { vector: number[]; userId: string; projectId: string | null; k: number },
): Promise<{ id: string; kind: LearningKind; content: string; confirmed: boolean; createdAt: Date; userId: string; author: string | null; distance: number }[]> {
  const vector = JSON.stringify(params.vector);
  const l = alias(learnings, "l");
  const scope = and(visibleTo(l, personalAndProject(params)), rankable(l));
  // vector_top_k searches the whole index; the scope is applied to its answer, so it is asked for extra.
  const rows = await db.all<{ id: string; kind: string; content: string; confirmed: number; created_at: number; user_id: string; author: string | null; distance: number }>(sql`
    SELECT l.id, l.kind, l.content, l.confirmed, l.created_at, l.user_id, ${writerName(l.userId)} AS author, vector_distance_cos(lv.embedding, vector32(${vector})) AS distance
    FROM vector_top_k('learning_vectors_idx', vector32(${vector}), ${params.k * 4}) AS v
    JOIN learning_vectors lv ON lv.seq = v.id
    JOIN learnings l ON l.seq = v.id
    WHERE ${scope}
    ORDER BY distance
    LIMIT ${params.k}`);
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind as LearningKind,
    content: r.content,
    confirmed: Boolean(r.confirmed),
    createdAt: new Date(Number(r.created_at)),
    userId: r.user_id,
    author: r.author,
    distance: Number(r.distance),
  }));
}
