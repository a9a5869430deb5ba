import { and, eq, getTableColumns, isNull, sql, type Column } from "drizzle-orm";
import type { DbOrTx } from "../client";
import { learnings, type LearningKind } from "../schema";
import { encodeTags, learningValues, type NewLearningRow } from "./learnings";
import { ownedBy, type Owner } from "./scope";

/**
 * The learning in use (not superseded) that a write sent again would find, where a new one would go: the
 * same text, kind, tags, pinned and confirmed (a client's retry after an answer it never got). A write
 * that differs in any of them asks for something else, and is stored as asked.
 */
export async function findSameLearning(db: DbOrTx, p: SameLearning): Promise<string | undefined> {
  const [row] = await db.select({ id: learnings.id }).from(learnings).where(sameLearning(p)).limit(1);
  return row?.id;
}

type SameLearning = Owner & { content: string; kind: LearningKind; tags: string[]; pinned: boolean; confirmed: boolean };

const sameLearning = (p: SameLearning) =>
  and(ownedBy(learnings, p), eq(learnings.content, p.content), eq(learnings.kind, p.kind), eq(learnings.tags, encodeTags(p.tags)), eq(learnings.pinned, p.pinned), eq(learnings.confirmed, p.confirmed), isNull(learnings.supersededAt));

/**
 * Stores `row` unless its scope holds the same learning in use (findSameLearning's fields), in one
 * statement: true when stored. The check and the insert cannot be split by another write, and the write
 * lock is held only while the database runs it, never across round trips (an interactive transaction
 * held it across three, and one a client gave up on while sqld stalled kept it until its stream expired:
 * writes failed for seconds after sqld came back).
 */
export async function insertLearningUnlessSame(db: DbOrTx, row: NewLearningRow & { pinned: boolean }): Promise<boolean> {
  const given = Object.entries(learningValues(row)).filter(([, value]) => value !== undefined);
  const columns = getTableColumns(learnings) as Record<string, Column>;
  const names = sql.join(given.map(([key]) => sql.identifier(columns[key]!.name)), sql`, `);
  const params = sql.join(given.map(([key, value]) => sql.param(value, columns[key]!)), sql`, `);
  const same = db.select({ one: sql`1` }).from(learnings).where(sameLearning(row));
  const result = await db.run(sql`insert into ${learnings} (${names}) select ${params} where not exists ${same}`);
  return result.rowsAffected > 0;
}

