import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The FTS5 virtual table made by drizzle/0001_learnings_fts.sql, described here (outside the schema
 * folder, so drizzle-kit never tries to create it as a plain table) for typed joins.
 */
export const learningsFts = sqliteTable("learnings_fts", {
  rowid: integer("rowid"),
  content: text("content"),
  tags: text("tags"),
});
