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
