import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { LearningKind } from "../../rules";

/**
 * How many learnings each owner has of each kind, kept by triggers on learnings (drizzle/…_learning_counts.sql)
 * at write time, so a context reads its counts, and the store's size, from a handful of rows instead of
 * counting the learnings table on every request. `owner` is `user:<id>` for a user's personal learnings
 * and `project:<id>` for a project's (lib/db/queries/scope.ts, countsOwner).
 */
export const learningCounts = sqliteTable(
  "learning_counts",
  {
    owner: text("owner").notNull(),
    kind: text("kind").$type<LearningKind>().notNull(),
    n: integer("n").notNull(),
  },
  (t) => [primaryKey({ columns: [t.owner, t.kind] })],
);

/**
 * Which learnings changed, in the order they changed: one row per insert, delete or ranked-column update
 * of a learning (and per learning of a user who is renamed), written by triggers (drizzle/…_learning_changes.sql).
 * Each server instance keeps its learnings' search index in memory (lib/context/search) and brings it up
 * to date by reading the rows after the last it applied; the newest id, read with every context's
 * version, says whether it has to. Old rows are dropped by a trigger past CHANGES_KEPT: an index that far
 * behind loads again.
 */
export const learningChanges = sqliteTable("learning_changes", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  seq: integer("seq").notNull(),
});
